/// What the recogniser may hear: a JSGF grammar whose public rule is `<command>` (the command
/// language's, from `CommandLanguage.grammar()`), optionally with an `<answer>` rule heard beside
/// it (yes, no, …), the words it uses, and an optional wake phrase.
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

    /// The grammar without the alternatives that use `removed` words: in each rule
    /// (`<name> = a | b | c;`), every top-level alternative containing such a word is dropped,
    /// nested choices with it included (coarse, but the grammar stays valid). JSGF's `<VOID>`
    /// would be the textbook way, but sphinxbase voids the whole enclosing rule with it (tried:
    /// "(go forward ten (meters | <VOID>))" no longer matched "go forward ten meters").
    /// A rule left with no alternative is reported in `emptiedRules` and left as it was.
    public func removing(words removed: Set<String>) -> (grammar: RecognitionGrammar, emptiedRules: [String]) {
        guard !removed.isEmpty else { return (self, []) }
        var lines: [String] = []
        var emptied: [String] = []
        for line in commandJSGF.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            guard let equals = line.firstIndex(of: "="), line.hasSuffix(";"), line.contains("<") else {
                lines.append(line)
                continue
            }
            let head = line[..<equals]
            let body = line[line.index(after: equals)..<line.index(before: line.endIndex)]
            let kept = Self.topLevelAlternatives(String(body)).filter { alternative in
                Self.spokenWords(in: alternative).allSatisfy { !removed.contains($0) }
            }
            if kept.isEmpty {
                emptied.append(head.trimmingCharacters(in: .whitespaces))
                lines.append(line)
            } else {
                lines.append(head + "= " + kept.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " | ") + ";")
            }
        }
        let grammar = RecognitionGrammar(commandJSGF: lines.joined(separator: "\n"), words: words.subtracting(removed),
                                         wakePhrase: wakePhrase.flatMap { phrase in
                                             Self.tokens(phrase).contains(where: removed.contains) ? nil : phrase })
        return (grammar, emptied)
    }

    /// `a | (b | c) d | [e]` → ["a ", " (b | c) d ", " [e]"]: split at bars outside brackets.
    static func topLevelAlternatives(_ body: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        for character in body {
            switch character {
            case "(", "[": depth += 1
            case ")", "]": depth -= 1
            case "|" where depth == 0:
                parts.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        parts.append(current)
        return parts
    }

    /// The words of a JSGF expansion, rule references (`<name>`) and tags (`{…}`) left out.
    static func spokenWords(in expansion: String) -> [String] {
        var words: [String] = []
        var word = ""
        var skipping: Character?
        for character in expansion {
            if let end = skipping { if character == end { skipping = nil }; continue }
            if character == "<" { skipping = ">"; continue }
            if character == "{" { skipping = "}"; continue }
            if character.isLetter || character.isNumber || character == "'" || character == "-" || character == "_" {
                word.append(character)
            } else if !word.isEmpty {
                words.append(word.lowercased())
                word = ""
            }
        }
        if !word.isEmpty { words.append(word.lowercased()) }
        return words
    }

    /// The text the decoder loads: with a wake phrase, a new public `<utterance>` accepts the
    /// wake phrase alone, or before a command, or a command alone; the listener (not the
    /// grammar) decides whether a command without it counts.
    public var jsgf: String {
        // An `<answer>` rule (yes, no, …; `VoiceCommandVocabulary`) is heard as well as a command.
        let answers = commandJSGF.contains("\n<answer> =")
        guard wakePhrase != nil || answers else { return commandJSGF }
        // pocketsphinx searches the first public rule, so <command> stops being public.
        let body = commandJSGF.replacingOccurrences(of: "public <command>", with: "<command>")
        let heard = answers ? "( <command> | <answer> )" : "<command>"
        guard let wakePhrase else { return body + "public <utterance> = \(heard);\n" }
        return body + "public <utterance> = ( \(wakePhrase) [\(heard)] ) | \(heard);\n"
    }

    static func tokens(_ text: String) -> [String] {
        text.lowercased().split(separator: " ").map(String.init)
    }
}
