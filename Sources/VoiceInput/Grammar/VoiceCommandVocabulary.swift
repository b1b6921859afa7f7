import Commands

/// The command language as the voice listener uses it: the wake phrase (favoured by the
/// recogniser beside the language's own phrases), the meaning of a recognised text, and the
/// phrases the recognition benchmark says.
public struct VoiceCommandVocabulary: Sendable {
    public let language: CommandLanguage
    /// The phrase a command must start with (`assist listen --wake-phrase`), when there is one.
    public let wakePhrase: String?
    /// Every concrete phrase the language's patterns allow, with its intent.
    public let phrases: [(intent: CommandIntent, text: String)]

    public init(language: CommandLanguage, wakePhrase: String? = nil) {
        self.language = language
        self.wakePhrase = wakePhrase
        phrases = language.concretePhrases()
    }

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
