import AssistCore

/// A failure that `assist` itself finds (an option it refuses, a command that cannot start): one
/// sentence, and the exit status of its kind. The libraries' own errors are mapped to a status in
/// `FailureReport`; both are printed on standard error without ArgumentParser's "Error:" prefix or
/// usage text (the sentence already says what to do).
struct CommandFailure: UserFacingError, Equatable {
    let message: String
    let status: ExitStatus

    init(_ message: String, status: ExitStatus = .failed) {
        self.message = message
        self.status = status
    }

    var exitCode: Int32 { status.rawValue }
    var userMessage: String { message }
}
