/// What a speech recogniser needs to listen for the command language alone: a JSGF grammar
/// (pocketsphinx's `jsgf` search), the words it uses (each must be in the recogniser's
/// pronunciation dictionary), and one phrase per concrete way of saying each command, with slots
/// filled by the language file's examples, for synthesising test speech.
///
/// Generated from the same patterns `CommandLanguage.interpret` matches, so whatever the
/// recogniser can return, the parser understands.
public struct CommandGrammar: Sendable, Equatable {
    /// The grammar text (JSGF 1.0); its public rule is `<command>`.
    public let jsgf: String
    /// Every word the grammar can produce, sorted.
    public let words: [String]
    /// Concrete phrases by intent, slots filled with examples ("find a chair").
    public let phrases: [(intent: CommandIntent, text: String)]

    public static func == (a: CommandGrammar, b: CommandGrammar) -> Bool {
        a.jsgf == b.jsgf && a.words == b.words && a.phrases.map(\.text) == b.phrases.map(\.text)
    }
}

extension CommandLanguage {
    /// The grammar for a recogniser, named `grammarName` inside the JSGF text.
    public func grammar(named grammarName: String = "assistivekit") -> CommandGrammar {
        var words = Set<String>()
        var rules: [String] = []
        func spoken(_ text: String) -> Bool { !text.isEmpty && text.allSatisfy { $0.isLetter || $0 == " " } }
        func alternatives(_ items: [String]) -> String {
            let kept = Array(Set(items.filter(spoken))).sorted()
            for item in kept { words.formUnion(item.split(separator: " ").map(String.init)) }
            return kept.joined(separator: " | ")
        }

        var intentRules: [String] = []
        var phraseList: [(CommandIntent, String)] = []
        for intent in CommandIntent.allCases {
            let patterns = phrases.filter { $0.intent == intent }
            let body = patterns.map { jsgfExpansion($0.pattern, words: &words) }.joined(separator: " | ")
            rules.append("<\(intent.rawValue)> = \(body);")
            intentRules.append("<\(intent.rawValue)>")
            for pattern in patterns {
                for elements in pattern.expansions {
                    let text = elements.map { element -> String in
                        switch element {
                        case .word(let word): return word
                        case .slot(let kind): return file.slotExamples[kind.rawValue] ?? kind.rawValue
                        }
                    }.joined(separator: " ")
                    if !phraseList.contains(where: { $0.0 == intent && $0.1 == text }) { phraseList.append((intent, text)) }
                }
            }
        }

        let numberWords = Array(file.numbers.units.keys) + Array(file.numbers.tens.keys) + Array(file.numbers.scales.keys)
            + file.numbers.joiners
        let digits = file.numbers.units.filter { $0.value <= 9 }.map(\.key)
        let fractions = file.numbers.fractions.keys.flatMap { ["a \($0)", $0] }
        let slotRules = [
            "<category> = \(alternatives(Array(vocabulary.entries.keys)));",
            "<categories> = <category> ( [\(alternatives(file.categories.listWords))] <category> )*;",
            "<numberWord> = \(alternatives(numberWords));",
            "<digit> = \(alternatives(digits));",
            "<percent> = \(alternatives(file.numbers.percent));",
            "<number> = <numberWord>+ [\(file.numbers.point) <digit>+] [<percent>] | \(file.numbers.point) <digit>+ [<percent>] | \(alternatives(fractions));",
            "<fraction> = <number>;",
            "<language> = \(alternatives(Array(file.languages.keys)));",
        ]
        words.insert(file.numbers.point)
        let leading = alternatives(file.fillers.leading)
        let trailing = alternatives(file.fillers.anywhere)
        let header = [
            "#JSGF V1.0;",
            "grammar \(grammarName);",
            "public <command> = [\(leading)] ( \(intentRules.joined(separator: " | ")) ) [\(trailing)];",
        ]
        let text = (header + rules + slotRules).joined(separator: "\n") + "\n"
        return CommandGrammar(jsgf: text, words: words.sorted(), phrases: phraseList)
    }

    private func jsgfExpansion(_ pattern: PhrasePattern, words: inout Set<String>) -> String {
        switch pattern {
        case .word(let word):
            words.insert(word)
            return word
        case .slot(let kind):
            return "<\(kind.rawValue)>"
        case .sequence(let parts):
            let inner = parts.map { jsgfExpansion($0, words: &words) }.joined(separator: " ")
            return parts.count == 1 ? inner : "( \(inner) )"
        case .choice(let options):
            let empty = options.contains(.sequence([]))
            let kept = options.filter { $0 != .sequence([]) }.map { jsgfExpansion($0, words: &words) }
            return empty ? "[ \(kept.joined(separator: " | ")) ]" : "( \(kept.joined(separator: " | ")) )"
        }
    }
}
