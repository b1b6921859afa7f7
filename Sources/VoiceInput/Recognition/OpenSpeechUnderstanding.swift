import Commands

/// What is done with a transcript of open speech (the recogniser's words it was not sure enough
/// of to take as said). The recogniser writes any word sequence, near-misses of commands included
/// ("find a tour" for "find a chair"), so such transcripts are acted on only when the exact phrase
/// patterns understand them, or when the meaning is certain (`UnderstandingThresholds.certainSimilarity`
/// and `certainMargin`, the bars for acting on speech that hides things); the recogniser's own
/// confidence was checked before (`RecognitionConfidence.acceptance`). Anything else the understanding would act on
/// is asked about instead ("…? Say yes or no."): a question costs a word, a wrong action costs trust.
public struct OpenSpeechUnderstanding: Sendable {
    public let understanding: CommandUnderstanding

    public init(understanding: CommandUnderstanding) {
        self.understanding = understanding
    }

    public func decide(_ text: String) -> CommandDecision {
        let decision = understanding.decide(text, channel: .spoken(certain: false))
        guard case .act(let command) = decision else { return decision }
        if understanding.language.interpret(text).command == command { return decision }
        let thresholds = understanding.thresholds
        if let classifier = understanding.classifier, let ranking = try? classifier.rank(text) {
            let choice = understanding.choose(from: ranking, words: understanding.words(text))
            if choice.similarity >= thresholds.certainSimilarity, choice.margin >= thresholds.certainMargin { return decision }
        }
        return .confirm(question: understanding.language.confirmationQuestion(for: command), pending: command)
    }
}
