import Perception
import Speech
import Testing
@testable import LiveGuidance

@Suite("Continuous scanning")
struct ContinuousModeTests {
    @Test("a chair that stays put is announced once in twenty frames")
    func noRepeatsWhileNothingChanges() throws {
        var harness = try PolicyHarness(mode: .continuous)
        let said = harness.frames(20, [sighting("chair", meters: 3, degrees: -30)])
        #expect(said.phrases == ["Chair, 3 meters, left."])
        #expect(said.first?.utterance.contentKey.hasPrefix("track#") == true)
        #expect(said.first?.utterance.priority == .newObject)
    }

    @Test("a dog walking from 7 m to 0.8 m is announced again at each halving of its distance, closer each time")
    func escalatesAsDistanceShrinks() throws {
        var harness = try PolicyHarness(mode: .continuous)
        var said: [Announcement] = []
        for step in 0..<32 {
            said += harness.frame([sighting("dog", meters: 7 - Double(step) * 0.2, degrees: 5)])
        }
        // 7 m (band 4–8 m), then into 2–4 m, 1–2 m and under 1 m: four sentences, not thirty.
        #expect(said.count == 4)
        let bands = said.compactMap(\.utterance.distanceBand)
        #expect(bands == bands.sorted(by: >))
        #expect(Set(bands).count == 4)
        #expect(said.last?.utterance.phrases == ["Dog, less than 1 meter, ahead."])
    }

    @Test("an empty view says \"No object detected.\" once, not at every frame")
    func emptyViewOnce() throws {
        var harness = try PolicyHarness(mode: .continuous)
        let said = harness.frames(10, [])
        #expect(said.phrases == ["No object detected."])
    }

    @Test("after objects leave, \"No object detected.\" comes once the tracks have ended")
    func emptyAfterObjects() throws {
        var harness = try PolicyHarness(mode: .continuous)
        _ = harness.frames(3, [sighting("cup", meters: 1.5)])
        let said = harness.frames(15, [])
        #expect(said.phrases == ["No object detected."])
    }

    @Test("dark frames say \"Too dark.\" once per episode and never \"No object detected.\"")
    func darkIsNotEmpty() throws {
        var harness = try PolicyHarness(mode: .continuous)
        var said = harness.frames(10, [], quality: .tooDark)
        #expect(said.phrases == ["Too dark."])
        said = harness.frames(3, [sighting("chair", meters: 2)])
        said += harness.frames(5, [], quality: .tooDark)
        #expect(said.phrases.filter { $0 == "Too dark." }.count == 1)
        #expect(!said.phrases.contains("No object detected."))
    }

    @Test("blurred frames ask to hold the camera steady, once")
    func blurred() throws {
        var harness = try PolicyHarness(mode: .continuous)
        let said = harness.frames(6, [], quality: .tooBlurred)
        #expect(said.phrases == ["Hold the camera steady."])
    }

    @Test("eight new objects: the five closest first, the other three on the next frame")
    func atMostFivePerFrame() throws {
        var harness = try PolicyHarness(mode: .continuous)
        let labels = ["chair", "cup", "bottle", "laptop", "tv", "couch", "bench", "backpack"]
        let objects = labels.enumerated().map { index, label in
            sighting(label, meters: 1.5 + Double(index), degrees: Double(index) * 8 - 30)
        }
        _ = harness.frame(objects)          // tracks start, not yet confirmed
        let first = harness.frame(objects)  // confirmed
        #expect(first.count == 5)
        #expect(first.phrases.map { $0.split(separator: ",")[0].lowercased() } == ["chair", "cup", "bottle", "laptop", "tv"])
        let second = harness.frame(objects)
        #expect(second.count == 3)
        #expect(harness.frames(5, objects).isEmpty)
    }

    @Test("\"scan now\" in continuous mode names everything once; what it named is not announced again as new")
    func scanNowInContinuous() throws {
        var harness = try PolicyHarness(mode: .continuous)
        let objects = [sighting("chair", meters: 2, degrees: -20)]
        _ = harness.frame(objects)  // seen once: not yet confirmed, so not yet announced
        _ = harness.request(.scanNow)
        let said = harness.frame(objects)
        #expect(said.phrases == ["Chair, 2 meters, slightly left."])
        #expect(said.first?.utterance.priority == .answer)
        #expect(harness.frames(5, objects).isEmpty)
    }

    @Test("a chair wobbling around the 2 m band edge is not announced again at each crossing")
    func bandEdgeHysteresis() throws {
        var harness = try PolicyHarness(mode: .continuous)
        let said = (0..<20).flatMap { frame in
            harness.frame([sighting("chair", meters: frame.isMultiple(of: 2) ? 1.9 : 2.1, degrees: -20)])
        }
        #expect(said.count == 1)
    }

    @Test("a scan of an empty view is not followed by a second \"No object detected.\"")
    func scanOfEmptyViewNotRepeated() throws {
        var harness = try PolicyHarness(mode: .continuous)
        _ = harness.request(.scanNow)
        let said = harness.frames(5, [])
        #expect(said.phrases == ["No object detected.", "Try better light or another angle."])
    }
}
