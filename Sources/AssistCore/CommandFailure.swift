/// A failure that ends a command (or a run an embedder started): one sentence, and the exit
/// status of its kind. `assist` prints the sentence on standard error, without ArgumentParser's
/// "Error:" prefix or usage text (the sentence already says what to do), and exits with the status.
public struct CommandFailure: UserFacingError, Equatable {
    public let message: String
    public let status: ExitStatus

    public init(_ message: String, status: ExitStatus = .failed) {
        self.message = message
        self.status = status
    }

    public var exitCode: Int32 { status.rawValue }
    public var userMessage: String { message }
}
