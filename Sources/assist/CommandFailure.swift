import ArgumentParser
import Foundation

/// Ends a command with one sentence on standard error and a chosen exit status, without
/// ArgumentParser's "Error:" prefix or usage text (the sentence already says what to do).
struct CommandFailure: Error, CustomStringConvertible {
    let message: String
    let exitCode: Int32

    init(_ message: String, exitCode: Int32 = 1) {
        self.message = message
        self.exitCode = exitCode
    }

    var description: String { message }
}
