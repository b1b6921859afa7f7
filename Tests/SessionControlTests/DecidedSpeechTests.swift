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

    @Test("a spoken line of several commands is carried out as several, in order, whatever the listener made of it whole")
    func severalSpoken() throws {
        let (controller, received, language) = try Self.setUp()
        let stop = try #require(language.interpret("stop detecting").command)
        let reply = controller.handle("stop detecting and exit", decided: .act(stop))
        func done() -> [SessionRequest] {
            received.commands.withLock { $0 }.filter { if case .say = $0 { return false } else { return true } }
        }
        #expect(reply.intent == "stopDetection,exit")
        #expect(done() == [.pause, .quit])
        // Spoken, "ignore chairs" must be confirmed first: with it, nothing at all is done.
        let none = controller.handle("ignore chairs and exit", decided: .act(stop))
        #expect(none.understood == false)
        #expect(none.reply == "Ignore chairs, exit: one of these needs a yes first, so I did nothing. Please say them one at a time.")
        #expect(done() == [.pause, .quit])
    }

    @Test("sent to the control socket (assist ctl), several commands in one line are carried out in order and answered together")
    func severalSent() throws {
        let (controller, received, _) = try Self.setUp()
        let reply = controller.handleReportingOutcome("pause detection, then exit")
        #expect(reply == ControlReply(understood: true, intent: "stopDetection,exit", reply: "Detection paused. Goodbye."))
        #expect(received.commands.withLock { $0 } == [.pause, .quit])
    }
}
