import Foundation
import SessionControl
import LiveGuidance

/// `assist console`: one command per line from standard input. Each answer is printed once: as
/// the session prints what is heard, when it is heard (see `LivePrinter`); only under `--json`,
/// where heard lines are not printed, is the reply printed here. The end of input ends the
/// session, as "exit".
enum ConsoleReader {
    static func start(controller: CommandController, session: SessionControls, printsReplies: Bool) {
        let thread = Thread {
            while let line = readLine() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty else { continue }
                let reply = controller.handle(trimmed)
                if printsReplies { FileHandle.standardOutput.write(Data((reply.reply + "\n").utf8)) }
            }
            session.send(.quit)
        }
        thread.name = "assist console input"
        thread.start()
    }
}
