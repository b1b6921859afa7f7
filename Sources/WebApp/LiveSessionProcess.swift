import Foundation
import Synchronization

/// A live session started by `assist serve --input`: `assist see INPUT` as a child process, whose
/// spoken sentences (the "[12.4 s] sentence" lines it prints as each is heard) go to the Live
/// page, and which takes the page's commands on its control socket like any session.
///
/// A child process rather than a session in this process: the session's wiring (detector, depth,
/// speech, voice) lives in `assist see`, and running it as it is keeps one way to start a session.
public final class LiveSessionProcess: Sendable {
    private let process: Process
    private let finished = Finished()

    private final class Finished: Sendable {
        let value = Mutex(false)
    }

    /// Starts `executable see INPUT OPTIONS…`; every sentence it says is published to `sentences`,
    /// every other line it prints goes to standard error, and its end is said on the page.
    public init(executable: URL, input: String, options: [String] = [], sentences: SpokenSentences) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["see", input] + options
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        let finished = self.finished
        process.terminationHandler = { ended in
            finished.value.withLock { $0 = true }
            // Why it ended, for whoever reads assist serve's errors (its sentences went to the page).
            let how = ended.terminationReason == .uncaughtSignal ? "signal" : "exit status"
            FileHandle.standardError.write(Data("assist serve: the live session ended (\(how) \(ended.terminationStatus)).\n".utf8))
        }
        try process.run()
        self.process = process
        let reader = Thread {
            var pending = Data()
            while true {
                let chunk = output.fileHandleForReading.availableData
                // The end of its output is the end of the session, told after its last sentence.
                if chunk.isEmpty {
                    sentences.publish("The live session has ended.")
                    break
                }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    if let sentence = Self.sentence(printed: line) {
                        sentences.publish(sentence)
                    } else {
                        FileHandle.standardError.write(Data((line + "\n").utf8))
                    }
                }
            }
        }
        reader.name = "assist serve: live session output"
        reader.start()
    }

    /// "[12.4 s] A chair, 2 meters, ahead." → "A chair, 2 meters, ahead."; nil for other lines.
    static func sentence(printed line: String) -> String? {
        guard line.hasPrefix("["), let close = line.range(of: " s] ") else { return nil }
        let time = line[line.index(after: line.startIndex)..<close.lowerBound]
        guard Double(time) != nil else { return nil }
        let sentence = line[close.upperBound...].trimmingCharacters(in: .whitespaces)
        return sentence.isEmpty ? nil : sentence
    }

    /// Ends the session as Ctrl-C would (it says goodbye and lets go of camera and models) and
    /// waits for it.
    public func stop() {
        guard !finished.value.withLock({ $0 }) else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
