import ArgumentParser
import Foundation
import SessionControl
import AssistCore

/// `assist ctl`: sends one command to the running session, as a keyboard shortcut would.
struct CtlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Send a command to the running assist see or assist console session and print its answer.",
        discussion: """
        The command is anything that can be said or typed: "scan now", "find a chair", "ignore chairs", \
        "set confidence threshold to 0.5", "switch to on demand", "help". The session says its answer aloud; \
        assist ctl prints the same sentence. Bind it to a desktop keyboard shortcut to get a one-key "scan now".

        The session listens on a Unix socket only its user can open, in $XDG_RUNTIME_DIR/assistivekit/. \
        Protocol, for other programs: connect, send one line of text, read one line of JSON \
        ({"understood": …, "intent": …, "reply": …}).

        Exit status: 0 when the command was carried out, 1 when it was not understood, refused or could not be carried out \
        (the sentence says why), 2 when no session is running.

        Examples:
          assist ctl scan now
          assist ctl "find a chair"
          assist ctl --json "set confidence threshold to 0.5"
        """ + DocsPage.commands.seeAlso)

    @Argument(help: ArgumentHelp("The command, in one or several words.", valueName: "command"))
    var words: [String]

    @Flag(help: "Print the session's JSON reply for scripts.")
    var json = false

    @Option(help: ArgumentHelp("Wait at most this long for the answer.", valueName: "seconds"))
    var timeout = 10.0

    func validate() throws {
        let text = words.joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw ValidationError("Give the command to send, for example: assist ctl scan now") }
        guard !text.contains("\n") else { throw ValidationError("Send one command at a time, on one line.") }
        guard timeout > 0 && timeout.isFinite else { throw ValidationError("--timeout must be a number of seconds above 0.") }
    }

    func run() throws {
        let path = ControlSocketLocation.socket().path
        let replyLine: String
        do {
            let socket = try UnixSocket.connect(to: path, timeoutSeconds: timeout)
            guard let line = try socket.ask(words.joined(separator: " ")) else { throw ControlSocketError.noReply }
            replyLine = line
        } catch let error as ControlSocketError {
            if case .noSession = error { throw CommandFailure(error.userMessage, status: .startupFailed) }
            throw CommandFailure(error.userMessage, status: .failed)
        }
        guard let reply = try? JSONDecoder().decode(ControlReply.self, from: Data(replyLine.utf8)) else {
            throw CommandFailure("The session's answer could not be read: \(replyLine)", status: .failed)
        }
        print(json ? replyLine : reply.reply)
        if !reply.understood { throw ExitCode(1) }
    }
}
