import Commands
import Foundation
@testable import LiveGuidance
import SessionControl
import Storage
import Synchronization
import Testing

/// What `assist ctl` is told is what the session did: a command the session could not carry out
/// is answered with the session's failure, and `ctl` exits 1 on it (`understood` is false).
@Suite("Command outcomes reported to the control socket")
struct CommandOutcomeTests {
    private static func controller(_ session: SessionControls) throws -> CommandController {
        let language = try CommandLanguage(language: "en", categories: SettingsValidator.cocoCategories)
        return CommandController(language: language, session: session, storage: nil,
                                 understanding: CommandUnderstanding(language: language, classifier: nil))
    }

    /// What the stand-in session was sent.
    private final class Received: Sendable {
        let commands = Mutex<[SessionRequest]>([])
    }

    /// Stands in for the session's turn: everything sent is taken and answered with `outcome`,
    /// on the sender's thread (the controller then finds its answer already there).
    private static func session(answering outcome: SessionRequestOutcome) -> (SessionControls, Received) {
        let controls = SessionControls()
        let received = Received()
        controls.actImmediately { [controls] _ in
            for case .request(let command, let answer) in controls.takeAll() {
                received.commands.withLock { $0.append(command) }
                answer?(outcome)
            }
        }
        return (controls, received)
    }

    @Test("scan now that the session could not carry out is answered with its failure, not 'Scanning.'")
    func failedScan() throws {
        let failure = "Assistive Vision could not start again: The object model could not be loaded."
        let (controls, received) = Self.session(answering: .failed(failure))
        let reply = try Self.controller(controls).handleReportingOutcome("scan now")
        #expect(received.commands.withLock { $0 } == [.scanNow])
        #expect(reply == ControlReply(understood: false, intent: "scanNow", reply: failure))
    }

    @Test("scan now that the session carried out is answered as before")
    func carriedOutScan() throws {
        let (controls, _) = Self.session(answering: .carriedOut)
        let reply = try Self.controller(controls).handleReportingOutcome("scan now")
        #expect(reply == ControlReply(understood: true, intent: "scanNow", reply: "Scanning."))
    }

    @Test("a command sent after the session ended is answered with the session's last sentence, not carried out")
    func endedSession() throws {
        let controls = SessionControls()
        controls.close(saying: "End of video.")
        let reply = try Self.controller(controls).handleReportingOutcome("switch to on demand")
        #expect(reply.understood == false)
        #expect(reply.reply == "End of video.")
    }

    @Test("a line that is no session command is answered without waiting for the session")
    func reportNeedsNoSession() throws {
        // No session turn ever comes: waiting on one would take the whole (long) wait.
        let reply = try Self.controller(SessionControls()).handleReportingOutcome("help", sessionWait: .seconds(3600))
        #expect(reply.understood)
        #expect(!reply.reply.isEmpty)
    }
}
