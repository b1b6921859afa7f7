import Commands

/// The command language as the voice listener uses it: the grammar handed to the recogniser,
/// the meaning of a recognised text, and the phrases the recognition benchmark says.
public struct VoiceCommandVocabulary: Sendable {
    public let language: CommandLanguage
    public let grammar: RecognitionGrammar
    /// Every concrete phrase the grammar was generated from, with its intent.
    public let phrases: [(intent: CommandIntent, text: String)]

    public init(language: CommandLanguage, wakePhrase: String? = nil) {
        self.language = language
        let commandGrammar = language.grammar()
        // The answers to a question ("Ignore chairs? Say yes or no."), so that it can be answered
        // by voice: without them "yes" was heard as "next".
        let answers = language.answerPhrases.map { RecognitionGrammar.tokens($0) }
            .filter { !$0.isEmpty && Self.typedOnlySpellings.isDisjoint(with: $0) }
        let answerRule = answers.isEmpty ? "" : "<answer> = " + answers.map { "( \($0.joined(separator: " ")) )" }.joined(separator: " | ") + ";\n"
        let jsgf = commandGrammar.jsgf.hasSuffix("\n") ? commandGrammar.jsgf : commandGrammar.jsgf + "\n"
        grammar = RecognitionGrammar(commandJSGF: jsgf + answerRule, words: Set(commandGrammar.words).union(answers.joined()),
                                     wakePhrase: wakePhrase)
        phrases = commandGrammar.phrases
    }

    /// Answer words that are typed shortcuts, said as another answer ("dont" is said "do not",
    /// also an answer): left out of what the recogniser hears, having no pronunciation.
    static let typedOnlySpellings: Set<String> = ["dont"]

    /// The meaning of a text, as a comparable string ("find(categories: chair)"): nil unless the
    /// command language understands it outright.
    public func meaning(of text: String) -> String? {
        language.interpret(text).command.map(\.description)
    }

    /// `perIntent` phrases of every intent (the first ones, as the language file lists them),
    /// each with the meaning the parser gives its text.
    public func benchmarkCommands(perIntent: Int) -> [SpokenCommand] {
        var taken: [CommandIntent: Int] = [:]
        var commands: [SpokenCommand] = []
        for (intent, text) in phrases where taken[intent, default: 0] < perIntent {
            guard let expected = meaning(of: text) else { continue }
            taken[intent, default: 0] += 1
            commands.append(SpokenCommand(text: text, expected: expected))
        }
        return commands
    }
}
