import AssistCore
import Commands
import Foundation
import LiveGuidance
import SessionControl
import TestSupport
import Testing

/// Questions about the things in view go through the same understanding as commands (act, ask,
/// refuse) and reach the session, or `assist see --ask`, as questions. The phrasings here were
/// written before the language file's examples were tuned and are not among them (held out).
@Suite("Questions about the things in view are understood as commands are")
struct SceneQuestionCommandTests {
    static let understanding = Result {
        try CommandUnderstanding.load(language: try CommandLanguage(language: "en", categories: COCOClasses.names),
                                      locator: ModelLocator(environment: [:], workingDirectory: SharedFiles.checkout, executableURL: nil))
    }

    static let answerablePhrasings: [(String, String, [String])] = [
        ("how many cars are parked outside", "count", ["car"]),
        ("are there any benches around", "isThere", ["bench"]),
        ("what colour is the bus", "colour", ["bus"]),
        ("what color is that bicycle", "colour", ["bicycle"]),
        ("how far away is the truck", "howFar", ["truck"]),
        ("what's written on the bus", "text", ["bus"]),
        ("what is closest to me", "closest", []),
        ("what's on my left", "onLeft", []),
        ("what's to the right of me", "onRight", []),
        ("where is the dog", "whereIs", ["dog"]),
        ("describe the scene", "describe", []),
    ]

    static let unanswerablePhrasings = ["what's his name", "is the shop open", "what breed is the dog", "how old is she",
                               "who is that man", "is the bakery open right now", "what is that lady called", "how old are those kids"]

    @Test("answerable questions (held out) are understood as the question asked, about the thing named", arguments: answerablePhrasings)
    func answerable(line: String, kind: String, categories: [String]) throws {
        let decision = try Self.understanding.get().decide(line, channel: .typed)
        let command = try #require(decision.command, "\(line): \(decision)")
        let question = try #require(CommandController.pictureQuestion(for: command), "\(line): \(command)")
        guard case .scene(let scene) = question else { Issue.record("\(line): \(question)"); return }
        #expect(scene.key == kind, "\(line): \(scene)")
        switch scene {
        case .count(let target), .isThere(let target), .whereIs(let target), .howFar(let target), .colour(let target), .text(let target):
            #expect(target.categories == categories, "\(line): \(target)")
        default:
            #expect(categories.isEmpty)
        }
    }

    /// Never a similar question answered instead ("what breed is the dog" is not "is there a dog").
    @Test("unanswerable questions (held out) are declined, never turned into a question that can be answered", arguments: unanswerablePhrasings)
    func unanswerable(line: String) throws {
        let decision = try Self.understanding.get().decide(line, channel: .typed)
        if let command = decision.command {
            #expect(command.intent == .cannotTell, "\(line): \(command)")
            #expect(CommandController.sessionRequest(for: command) == .ask(.scene(.cannotTell)))
        } else {
            // Not acted on at all is honest too: no answer about something else.
            #expect(decision.sentence != nil, "\(line)")
        }
    }

    /// "What colour is the shop": the detector knows no shop, so the answer is not the colour at
    /// the centre of the view (a similar question answered instead), but that it cannot be seen.
    /// "What colour is this shirt" is still the colour of what is held up to the camera.
    @Test("the colour of a named thing the detector does not know is refused, not answered with the centre's colour")
    func colourOfUnknownThing() throws {
        for line in ["what colour is the shop", "what color is the building"] {
            let decision = try Self.understanding.get().decide(line, channel: .typed)
            #expect(decision.command == nil, "\(line): \(decision)")
        }
        for line in ["what colour is this shirt", "what colour is the shirt i'm holding"] {
            let decision = try Self.understanding.get().decide(line, channel: .typed)
            #expect(decision.command?.intent == .describeColour, "\(line): \(decision)")
        }
    }

    @Test("in a live session the questions reach the session as questions about the newest frame")
    func live() throws {
        let english = try CommandLanguage(language: "en", categories: COCOClasses.names)
        let command = try #require(english.interpret("what colour is the bus").command)
        #expect(CommandController.sessionRequest(for: command)
            == .ask(.scene(.colour(SceneTarget(categories: ["bus"], singular: "bus", plural: "buses")))))
        // "where is the bus" stays a search in a live session (find mode guides to it); for a picture it is answered.
        let find = try #require(english.interpret("where is the bus").command)
        #expect(CommandController.sceneQuestion(for: find) == nil)
        #expect(CommandController.pictureQuestion(for: find) == .scene(.whereIs(SceneTarget(categories: ["bus"], singular: "bus", plural: "buses"))))
    }
}
