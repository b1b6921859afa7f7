extension CommandLanguage {
    /// The decision the phrase patterns alone make, as commands were handled before meaning was
    /// used: a pattern matched (exactly or as a near miss) is acted on, anything else answered.
    /// Kept as the baseline the evaluation compares with.
    public func decideByPatterns(_ text: String) -> CommandDecision {
        let interpretation = interpret(text)
        if case .understood(let command) = interpretation { return .act(command) }
        return .refuse(reply(to: interpretation))
    }
}
