/// What to do with one typed or spoken line: carry a command out, ask first, or say why not.
/// Nothing is ever done on a line that was not understood, and nothing is substituted.
public enum CommandDecision: Sendable, Equatable {
    /// Understood: carry it out.
    case act(Command)
    /// Understood well enough to ask, not to act: say `question`; carry out `pending` only
    /// after "yes" (see `PendingConfirmation`).
    case confirm(question: String, pending: Command)
    /// Not carried out; `sentence` says why (not understood, a thing the model cannot see, …).
    case refuse(String)

    public var command: Command? {
        if case .act(let command) = self { return command }
        return nil
    }

    /// The one sentence to say when the decision is not to act at once.
    public var sentence: String? {
        switch self {
        case .act: return nil
        case .confirm(let question, _): return question
        case .refuse(let sentence): return sentence
        }
    }
}

/// Where a line came from. Typed text is exactly what the user meant to send, so it is acted on
/// at once; speech may be misheard, so what would hide things is confirmed first.
public enum InputChannel: Sendable, Equatable {
    case typed
    /// `certain`: the recogniser's own confidence is high (the meaning's margin is checked here).
    case spoken(certain: Bool)
}
