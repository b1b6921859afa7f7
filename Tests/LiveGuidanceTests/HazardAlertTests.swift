import Perception
import Speech
import Testing
@testable import LiveGuidance

@Suite("Hazard alerts")
struct HazardAlertTests {
    @Test("a bus among chairs goes first, with its own tone at the rule's loudness and a vibration")
    func hazardPrecedence() throws {
        var harness = try PolicyHarness(mode: .continuous)
        let scene = [sighting("chair", meters: 2, degrees: -20), sighting("bus", meters: 8, degrees: 15),
                     sighting("person", meters: 3, degrees: 0)]
        _ = harness.frame(scene)
        let said = harness.frame(scene)
        let first = try #require(said.first)
        #expect(first.utterance.phrases.first == "Bus, 8 meters, slightly right.")
        #expect(first.utterance.priority == .hazard)
        #expect(first.utterance.earcon == .vehicleHazard)
        #expect(first.utterance.severity == 0.8)
        #expect(first.vibration != nil)
        // Announced once, as a hazard, not again as a new object.
        #expect(said.phrases.filter { $0.hasPrefix("Bus") }.count == 1)
        #expect(said.count == 3)
    }

    @Test("a parked car is not repeated while nothing changes; closing in, it is said again as \"Car coming closer, …\", naming what is coming")
    func hazardNotRepeatedUntilItChanges() throws {
        var harness = try PolicyHarness(mode: .explore)
        _ = harness.frame([])  // the exploration summary of entering the mode
        let parked = harness.frames(15, [sighting("car", meters: 6, degrees: -15)])
        #expect(parked.count == 1)
        var approaching: [Announcement] = []
        for step in 0..<12 {
            approaching += harness.frame([sighting("car", meters: 6 - Double(step) * 0.4, degrees: -15)])
        }
        #expect(!approaching.isEmpty)
        #expect(approaching.allSatisfy { $0.utterance.priority == .hazard })
        // The warning names the car in the same sentence: heard alone, it still says what is coming.
        let warning = try #require(approaching.phrases.first { $0.contains("coming closer") })
        #expect(warning.hasPrefix("Car coming closer, "))
        #expect(warning.hasSuffix(", slightly left."))
        #expect(!approaching.phrases.contains("Coming closer."))
    }

    @Test("a car far away and standing still is no hazard; continuous mode mentions it as an object")
    func farHazardIsAnObject() throws {
        var harness = try PolicyHarness(mode: .continuous)
        let said = harness.frames(5, [sighting("car", meters: 25, degrees: 0)])
        #expect(said.count == 1)
        #expect(said.first?.utterance.priority == .newObject)
    }

    @Test("hazard categories follow the settings: with bicycles removed, a bicycle is an ordinary object")
    func hazardsFromSettings() throws {
        var settings = GuidanceSettings()
        settings.hazards["bicycle"] = nil
        var harness = try PolicyHarness(mode: .continuous, settings: settings)
        let said = harness.frames(3, [sighting("bicycle", meters: 3, degrees: 0)])
        #expect(said.first?.utterance.priority == .newObject)
        #expect(said.first?.utterance.earcon == nil)
    }

    @Test("in navigation a car coming up the corridor is warned about as a hazard, not also as an obstacle")
    func hazardInCorridorOnce() throws {
        var harness = try PolicyHarness(mode: .navigate)
        var said: [Announcement] = []
        for step in 0..<10 {
            said += harness.frame([sighting("car", meters: 4.5 - Double(step) * 0.3, degrees: 0)])
        }
        #expect(!said.isEmpty)
        #expect(said.allSatisfy { $0.utterance.earcon == .vehicleHazard && $0.utterance.priority == .hazard })
    }
}
