/// One question waiting for "yes" or "no": the command asked about is carried out only after yes,
/// dropped after no, after any other line, or when no answer came within `timeout`.
///
/// Time is handed in as instants of the caller's clock, so tests drive it without waiting.
public struct PendingConfirmation<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration, Instant: Sendable {
    public enum Answer: Sendable, Equatable {
        /// Yes in time: carry out the command.
        case confirmed(Command)
        /// No: nothing is done.
        case declined
        /// The question was no longer open: too late, or never asked.
        case expired
        /// The line is no answer: the question is dropped and the line handled on its own.
        case notAnAnswer
    }

    /// Ten seconds: long enough to answer after the question is spoken, short enough that a
    /// later, unrelated "yes" in conversation does not carry out a forgotten command.
    public static var defaultTimeout: Duration { .seconds(10) }

    public let timeout: Duration
    public private(set) var pending: Command?
    private var askedAt: Instant?

    public init(timeout: Duration = defaultTimeout) {
        self.timeout = timeout
    }

    /// Opens a question about `command` (replacing any open one).
    public mutating func ask(_ command: Command, at now: Instant) {
        pending = command
        askedAt = now
    }

    /// Whether a question is open at `now`; closes it when its time is up.
    public mutating func isOpen(at now: Instant) -> Bool {
        guard pending != nil, let askedAt else { return false }
        if askedAt.duration(to: now) > timeout {
            pending = nil
            self.askedAt = nil
            return false
        }
        return true
    }

    /// Takes `text` as the answer to the open question, if it is one. `isYes` reads the answer
    /// (`CommandLanguage.answer`): true, false, or nil when the line is no answer.
    public mutating func answer(_ text: String, at now: Instant, isYes: (String) -> Bool?) -> Answer {
        let command = pending
        guard isOpen(at: now), let command else {
            // A late yes or no is still an answer, to a question that is gone: say so rather
            // than treat "yes" as a new command.
            return isYes(text) == nil ? .notAnAnswer : .expired
        }
        pending = nil
        askedAt = nil
        switch isYes(text) {
        case true?: return .confirmed(command)
        case false?: return .declined
        case nil: return .notAnAnswer
        }
    }
}
