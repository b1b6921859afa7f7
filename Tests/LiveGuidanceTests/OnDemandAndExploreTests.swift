import Perception
import Speech
import Testing
@testable import LiveGuidance

@Suite("On-demand scanning and scene exploration")
struct OnDemandAndExploreTests {
    let scene = [sighting("person", meters: 3, degrees: 2), sighting("chair", meters: 2, degrees: -30),
                 sighting("dog", meters: 4, degrees: 15)]

    @Test("on demand says nothing until \"scan now\", then describes the next frame in full, once")
    func silentUntilRequested() throws {
        var harness = try PolicyHarness(mode: .onDemand)
        #expect(harness.frames(10, scene).isEmpty)
        #expect(harness.request(.scanNow).isEmpty)
        let answer = harness.frame(scene)
        #expect(answer.phrases == ["Chair, 2 meters, left.", "Person, 3 meters, ahead.", "Dog, 4 meters, slightly right."])
        #expect(answer.allSatisfy { $0.utterance.priority == .answer })
        #expect(harness.frames(5, scene).isEmpty)
    }

    @Test("a scan that finds nothing suggests better light or another angle")
    func nothingFoundSuggests() throws {
        var harness = try PolicyHarness(mode: .onDemand)
        _ = harness.request(.scanNow)
        let answer = harness.frame([])
        #expect(answer.phrases == ["No object detected.", "Try better light or another angle."])
        #expect(answer.first?.utterance.earcon == .nothingFound)
    }

    @Test("two scans of the same scene are both heard: each answer has its own content key")
    func answersAreNotRepeatsOfEachOther() throws {
        var harness = try PolicyHarness(mode: .onDemand)
        _ = harness.request(.scanNow)
        let first = harness.frame(scene)
        _ = harness.request(.scanNow)
        let second = harness.frame(scene)
        #expect(Set(first.map(\.utterance.contentKey)).isDisjoint(with: second.map(\.utterance.contentKey)))
    }

    @Test("switching to exploration summarises the next frame: how many objects, then the closest first, with direction and distance")
    func exploreClosestFirst() throws {
        var harness = try PolicyHarness(mode: .continuous)
        #expect(harness.setMode(.explore).phrases == ["Scene exploration."])
        let summary = harness.frame(scene)
        #expect(summary.phrases == ["3 objects, closest first: chair, 2 meters, left; person, 3 meters, ahead; dog, 4 meters, slightly right."])
        #expect(harness.frames(5, scene).isEmpty)
        _ = harness.request(.explore)
        #expect(harness.frame(scene).count == 1)
    }

    @Test("exploration counts every object in view, names at most the set number (hazards first, then the closest), and says them closest first")
    func exploreChoosesMostRelevant() throws {
        var settings = GuidanceSettings()
        settings.exploreMaximumObjects = 3
        var harness = try PolicyHarness(mode: .explore, settings: settings)
        let objects = [sighting("cup", meters: 0.8, degrees: 20), sighting("chair", meters: 2, degrees: -20),
                       sighting("bench", meters: 6, degrees: -5), sighting("car", meters: 9, degrees: 30),
                       sighting("laptop", meters: 3, degrees: 0)]
        let summary = harness.frame(objects).text
        #expect(summary == "5 objects, closest first: cup, less than 1 meter, slightly right; chair, 2 meters, slightly left; car, 9 meters, right.")
    }

    @Test("exploration says the closest object first, also before a person farther away (people are otherwise said first)")
    func exploreClosestBeforePrioritised() throws {
        var harness = try PolicyHarness(mode: .explore)
        let summary = harness.frame([sighting("person", meters: 3, degrees: 0), sighting("cup", meters: 0.8, degrees: 20)]).text
        #expect(summary == "2 objects, closest first: cup, less than 1 meter, slightly right; person, 3 meters, ahead.")
    }

    @Test("one explored object is summarised without \"closest first\"; an empty view suggests better light")
    func exploreOneOrNone() throws {
        var harness = try PolicyHarness(mode: .explore)
        #expect(harness.frame([sighting("cup", meters: 1.2, degrees: -12)]).phrases == ["1 object: cup, 1 meter, slightly left."])
        _ = harness.request(.explore)
        #expect(harness.frame([], quality: .tooDark).phrases == ["Too dark.", "Try better light or another angle."])
    }
}
