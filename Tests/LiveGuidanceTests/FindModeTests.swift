import Guidance
import Perception
import Speech
import Testing
@testable import LiveGuidance

@Suite("Find an object")
struct FindModeTests {
    @Test("\"find a chair\" confirms, then speaks only of the chair in a room with people and a dog")
    func onlyTheTargetCategory() throws {
        var harness = try PolicyHarness(mode: .continuous)
        #expect(harness.setMode(.find(target("chair"))).phrases == ["Looking for chairs."])
        var said: [Announcement] = []
        for step in 0..<20 {
            said += harness.frame([sighting("person", meters: 2, degrees: -20), sighting("dog", meters: 1.5, degrees: 20),
                                   sighting("chair", meters: 6 - Double(step) * 0.1, degrees: -28)])
        }
        #expect(!said.isEmpty)
        for phrase in said.phrases {
            #expect(phrase.hasPrefix("Chair"), "find mode said: \(phrase)")
        }
    }

    @Test("guidance is said again when the chair's direction band changes, not at every frame")
    func guidanceOnDirectionChange() throws {
        var harness = try PolicyHarness(mode: .find(target("chair")))
        var said = harness.frames(6, [sighting("chair", meters: 3, degrees: -30)])
        #expect(said.phrases == ["Chair, 3 meters, left."])
        said = harness.frames(6, [sighting("chair", meters: 3, degrees: -15)])
        #expect(said.phrases == ["Chair, 3 meters, slightly left."])
    }

    @Test("close and ahead the chair is found, and the mode goes back to what it was")
    func foundReturnsToPreviousMode() throws {
        var harness = try PolicyHarness(mode: .navigate)
        _ = harness.setMode(.find(target("chair")))
        var said: [Announcement] = []
        for step in 0..<20 {
            said += harness.frame([sighting("chair", meters: max(3 - Double(step) * 0.2, 1), degrees: 2)])
        }
        #expect(said.phrases.contains("Chair found, 1 meter, ahead."))
        #expect(harness.policy.mode == .navigate)
    }

    @Test("after the timeout without a chair: \"No chair found.\", once, and back to the mode before")
    func timeout() throws {
        var settings = GuidanceSettings()
        settings.findTimeoutSeconds = 3
        var harness = try PolicyHarness(mode: .onDemand, settings: settings)
        _ = harness.setMode(.find(target("chair")))
        let said = harness.frames(30, [sighting("person", meters: 2)])
        #expect(said.phrases == ["No chair found."])
        #expect(harness.policy.mode == .onDemand)
    }

    @Test("\"is there a person ahead?\" answers yes or no once, about the walking direction only")
    func aheadOnly() throws {
        var harness = try PolicyHarness(mode: .continuous)
        _ = harness.frames(3, [sighting("person", meters: 3, degrees: -30)])
        #expect(harness.setMode(.find(target("person", aheadOnly: true))).isEmpty)
        #expect(harness.frame([sighting("person", meters: 3, degrees: -30)]).phrases == ["No person ahead."])
        #expect(harness.policy.mode == .continuous)

        _ = harness.setMode(.find(target("person", aheadOnly: true)))
        let yes = harness.frame([sighting("person", meters: 3, degrees: 4), sighting("chair", meters: 2, degrees: 0)])
        #expect(yes.phrases == ["Yes.", "Person, 3 meters, ahead."])
    }

    @Test("a bus closing in is still announced while looking for a chair: safety wins")
    func hazardsStillSpeak() throws {
        var harness = try PolicyHarness(mode: .find(target("chair")))
        let said = harness.frames(4, [sighting("bus", meters: 6, degrees: 10)])
        #expect(said.count == 1)
        #expect(said.first?.utterance.priority == .hazard)
    }
}

@Suite("Find target names")
struct FindTargetResolutionTests {
    let cocoNames = ["person", "bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat",
                     "traffic light", "fire hydrant", "stop sign", "parking meter", "bench", "bird", "cat", "dog",
                     "horse", "sheep", "cow", "chair", "couch", "potted plant", "bed", "dining table", "toilet", "tv",
                     "laptop", "mouse", "remote", "keyboard", "cell phone", "book", "clock", "vase", "scissors"]

    @Test("plurals and the spoken names find their class", arguments: [
        ("chairs", "chair"), ("a chair", "chair"), ("people", "person"), ("benches", "bench"), ("buses", "bus"),
        ("table", "dining table"), ("Dogs", "dog"), ("any cars?", "car"),
    ])
    func resolvesNames(name: String, label: String) throws {
        let found = try FindTarget.resolve(name: name, classNames: cocoNames)
        #expect(found.categories == [label])
    }

    @Test("the spoken name is singular, for \"No chair found.\"")
    func spokenNameSingular() throws {
        #expect(try FindTarget.resolve(name: "chairs", classNames: cocoNames).spokenName == "chair")
        #expect(try FindTarget.resolve(name: "people", classNames: cocoNames, aheadOnly: true).aheadOnly)
    }

    @Test("a category the model cannot detect is refused in one sentence naming the closest supported names")
    func unsupportedCategory() throws {
        let error = try #require(throws: UndetectableCategoryError.self) {
            try FindTarget.resolve(name: "doors", classNames: cocoNames)
        }
        #expect(error.userMessage.hasPrefix("I can't detect doors with the current model. I can detect: "))
        #expect((3...5).contains(error.suggestions.count))
        #expect(error.suggestions.allSatisfy { name in cocoNames.contains { $0 == name } || name == "table" || name == "TV" })
        // "dog" is one letter away from "door" once the plural is gone.
        #expect(error.suggestions.contains("dog"))
        #expect(error.userMessage.hasSuffix("."))
    }

    @Test("a near miss offers the names it resembles first")
    func nearMiss() throws {
        let error = try #require(throws: UndetectableCategoryError.self) {
            try FindTarget.resolve(name: "chiar", classNames: cocoNames)
        }
        #expect(error.suggestions.first == "chair")
    }
}
