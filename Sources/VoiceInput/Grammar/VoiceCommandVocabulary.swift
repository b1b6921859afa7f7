/// What the voice listener can recognise and how recognised text is understood: the grammar
/// handed to the recogniser, the phrases the recognition benchmark says, and the meaning of a
/// text (for checking that what was heard is what was meant).
public struct VoiceCommandVocabulary: @unchecked Sendable {
    public let grammar: RecognitionGrammar
    public let benchmarkCommands: [SpokenCommand]
    public let understand: (String) -> String?

    /// Until the command language is merged: the starter grammar, where a sentence means itself.
    public static var current: VoiceCommandVocabulary {
        let grammar = StarterCommandGrammar.english
        return VoiceCommandVocabulary(
            grammar: grammar,
            benchmarkCommands: StarterCommandGrammar.examples.map { SpokenCommand(text: $0, expected: $0) },
            understand: { text in StarterCommandGrammar.examples.contains(text) ? text : nil })
    }
}
