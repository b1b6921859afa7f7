/// What the recogniser may hear: a JSGF grammar whose public rule is `<command>` (the command
/// language's, from `CommandLanguage.grammar()`), the words it uses, and an optional wake phrase.
/// A small vocabulary keeps recognition fast and accurate.
public struct RecognitionGrammar: Sendable, Equatable {
    /// JSGF 1.0 text with a public `<command>` rule.
    public let commandJSGF: String
    public let words: Set<String>
    /// Said before a command ("assistant"), or alone to wake the listener; nil: commands alone.
    public var wakePhrase: String?

    public init(commandJSGF: String, words: some Sequence<String>, wakePhrase: String? = nil) {
        self.commandJSGF = commandJSGF
        self.words = Set(words.map { $0.lowercased() })
        self.wakePhrase = wakePhrase?.lowercased()
    }

    /// Every word the decoder must know, the wake phrase's included.
    public var allWords: Set<String> {
        words.union(wakePhrase.map { RecognitionGrammar.tokens($0) } ?? [])
    }

    /// The grammar with every use of `removed` words made impossible: each such word becomes
    /// JSGF's `<VOID>` (a rule that never matches), so only the alternatives containing it
    /// drop out while the rest of the grammar stays as written.
    public func removing(words removed: Set<String>) -> RecognitionGrammar {
        guard !removed.isEmpty else { return self }
        var lines: [String] = []
        var inBody = false
        for line in commandJSGF.split(separator: "\n", omittingEmptySubsequences: false) {
            // The header ("#JSGF V1.0;", "grammar name;") holds no spoken words.
            if !inBody {
                lines.append(String(line))
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("grammar ") { inBody = true }
                continue
            }
            lines.append(Self.replacingWords(in: String(line), removed))
        }
        return RecognitionGrammar(commandJSGF: lines.joined(separator: "\n"), words: words.subtracting(removed),
                                  wakePhrase: wakePhrase.flatMap { phrase in
                                      Self.tokens(phrase).contains(where: removed.contains) ? nil : phrase })
    }

    /// The text the decoder loads: with a wake phrase, a new public `<utterance>` accepts the
    /// wake phrase alone, or before a command, or a command alone; the listener (not the
    /// grammar) decides whether a command without it counts.
    public var jsgf: String {
        guard let wakePhrase else { return commandJSGF }
        // pocketsphinx searches the first public rule, so <command> stops being public.
        let body = commandJSGF.replacingOccurrences(of: "public <command>", with: "<command>")
        return body + "public <utterance> = ( \(wakePhrase) [<command>] ) | <command>;\n"
    }

    static func tokens(_ text: String) -> [String] {
        text.lowercased().split(separator: " ").map(String.init)
    }

    /// Replaces whole words (outside `<rule names>`) found in `removed` by `<VOID>`.
    static func replacingWords(in line: String, _ removed: Set<String>) -> String {
        var output = ""
        var word = ""
        var inRuleName = false
        func flush() {
            output += removed.contains(word.lowercased()) ? "<VOID>" : word
            word = ""
        }
        for character in line {
            if character == "<" { flush(); inRuleName = true; output.append(character); continue }
            if character == ">" { inRuleName = false; output.append(character); continue }
            if inRuleName { output.append(character); continue }
            if character.isLetter || character.isNumber || character == "'" || character == "-" || character == "_" {
                word.append(character)
            } else {
                flush()
                output.append(character)
            }
        }
        flush()
        return output
    }
}
