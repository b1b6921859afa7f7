import AssistCore
import Foundation
import Guidance
import Testing
@testable import LiveGuidance

@Suite("Mode sentences")
struct ModeSentencesTests {
    @Test("each mode change is confirmed in one sentence from en.modes.json", arguments: [
        (GuidanceMode.continuous, "Continuous scanning on."), (.onDemand, "On-demand scanning. Say scan now."),
        (.navigate, "Scene navigation on."), (.explore, "Scene exploration."),
        (.find(FindTarget(categories: ["chair"], spokenName: "chair")), "Looking for chairs."),
        (.find(FindTarget(categories: ["person"], spokenName: "person")), "Looking for people."),
        (.find(FindTarget(categories: ["car", "bus", "truck"], spokenName: "vehicles")), "Looking for vehicles."),
    ])
    func confirmations(mode: GuidanceMode, sentence: String) throws {
        var policy = GuidancePolicy(mode: .onDemand, describer: try SceneDescriber(language: "en"))
        let said = policy.setMode(mode, atSeconds: 1)
        #expect(said.map(\.utterance.text) == [sentence])
        // The user asked for it: the confirmation must be heard, not dropped with a stale backlog.
        #expect(said.allSatisfy { $0.utterance.priority == .answer })
        #expect(policy.mode == mode)
    }

    @Test("the shipped phrase file loads; a language without one is refused, not replaced by English")
    func bundledPhrases() throws {
        #expect(try ModePhrases.bundled().language == "en")
        #expect(throws: SentenceFileError.languageNotAvailable(what: "sentences of the guidance modes", language: "xx", available: ["en"])) {
            try ModePhrases.bundled(language: "xx")
        }
        #expect(throws: SentenceFileError.languageNotAvailable(what: "session sentences", language: "xx", available: ["en"])) {
            try SessionSentences.bundled(language: "xx")
        }
    }
}
