extension CommandLanguage {
    /// One phrase per concrete way of saying each command, by intent, with slots filled by the
    /// language file's examples ("find a chair"): what the recognition benchmark says, and what
    /// the tests check the parser understands as its own intent. Generated from the same patterns
    /// `CommandLanguage.interpret` matches.
    public func concretePhrases() -> [(intent: CommandIntent, text: String)] {
        var phraseList: [(intent: CommandIntent, text: String)] = []
        for intent in CommandIntent.allCases {
            for pattern in phrases where pattern.intent == intent {
                for elements in pattern.expansions {
                    let text = elements.map { element -> String in
                        switch element {
                        case .word(let word): return word
                        case .slot(let kind): return file.slotExamples[kind.rawValue] ?? kind.rawValue
                        }
                    }.joined(separator: " ")
                    if !phraseList.contains(where: { $0.intent == intent && $0.text == text }) { phraseList.append((intent, text)) }
                }
            }
        }
        return phraseList
    }
}
