import Foundation
import LiveGuidance

/// `assist console`: one command per line from standard input, each answer printed as one plain
/// line (a screen reader reads it as it comes). The end of input ends the session, as "exit".
enum ConsoleReader {
    static func start(controller: CommandController, session: SessionControls) {
        let thread = Thread {
            while let line = readLine() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty else { continue }
                let reply = controller.handle(trimmed)
                FileHandle.standardOutput.write(Data((reply.reply + "\n").utf8))
            }
            session.send(.quit)
        }
        thread.name = "assist console input"
        thread.start()
    }
}
