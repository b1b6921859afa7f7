import Commands
import Foundation
@testable import LiveGuidance
import SessionControl
import Storage
import Synchronization
import Testing

/// Spoken lines reach the controller already decided by the listener (`ListeningDecoding`): the
/// decision is what is done, and a spoken yes or no still answers the question it asked.
@Suite("Spoken commands decided by the listener")
struct DecidedSpeechTests {
    private final class Received: Sendable {
        let commands = Mutex<[SessionRequest]>([])
    }

    private static func setUp() throws -> (CommandController, Received, CommandLanguage) {
        let language = try CommandLanguage(language: "en", categories: SettingsValidator.cocoCategories)
        let controls = SessionControls()
        let received = Received()
        controls.actImmediately { [controls] _ in
            for case .request(let command, let answer) in controls.takeAll() {
                received.commands.withLock { $0.append(command) }
                answer?(.carriedOut)
            }
        }
        let controller = CommandController(language: language, session: controls, storage: nil,
                                           understanding: CommandUnderstanding(language: language, classifier: nil))
        return (controller, received, language)
    }

    private static func finds(_ received: Received) -> Int {
        received.commands.withLock { $0 }.filter { if case .find = $0 { return true } else { return false } }.count
    }

    @Test("a question decided by the listener is asked, not carried out; yes then carries it out")
    func askedThenYes() throws {
        let (controller, received, language) = try Self.setUp()
        let cup = try #require(language.interpret("find a cup").command)
        // The grammar heard "find a chair", open speech "find a cup": the listener asks about the cup.
        let question = CommandDecision.confirm(question: language.confirmationQuestion(for: cup), pending: cup)
        let asked = controller.handle("find a chair", decided: question)
        #expect(asked.understood == false)
        #expect(asked.reply == language.confirmationQuestion(for: cup))
        #expect(Self.finds(received) == 0)
        let yes = controller.handle("yes", decided: .refuse(language.reply(to: .notUnderstood)))
        #expect(yes.understood)
        #expect(yes.intent == "find")
        #expect(Self.finds(received) == 1)
    }

    @Test("a refusal decided by the listener does nothing, though the words alone would have been acted on")
    func refused() throws {
        let (controller, received, language) = try Self.setUp()
        let reply = controller.handle("find a chair", decided: .refuse(language.reply(to: .notUnderstood)))
        #expect(reply.understood == false)
        #expect(Self.finds(received) == 0)
        #expect(controller.handle("find a chair", channel: .spoken(certain: false)).understood)
    }
}
