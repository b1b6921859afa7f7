/// A sentence of the command language, for the recogniser to favour (`PhraseBias`), with how much it counts.
public struct LanguageModelSentence: Sendable, Equatable {
    /// Lower-case words (letters and apostrophes only).
    public let words: [String]
    public let weight: Double

    public init(words: [String], weight: Double) {
        self.words = words
        self.weight = weight
    }
}

extension CommandLanguage {
    /// The command language's sentences, which the recogniser favours (`PhraseBias`): every
    /// example phrasing of every intent (weight 1 each), and every concrete phrase the patterns
    /// allow with each slot filled by each of its values (the values of one phrase share a weight
    /// of 1, so that an intent with a category slot does not outweigh the others by the number of
    /// categories; the weights were the removed command n-gram model's counts). Speech is
    /// transcribed, then understood by meaning, so these only make the command language's word
    /// sequences likelier, not describe every one.
    public func languageModelSentences() -> [LanguageModelSentence] {
        var result: [LanguageModelSentence] = []
        var seen = Set<[String]>()
        func add(_ text: String, weight: Double) {
            let words = Self.languageModelWords(text)
            guard !words.isEmpty else { return }
            if seen.insert(words).inserted || weight < 1 { result.append(LanguageModelSentence(words: words, weight: weight)) }
        }
        for intent in CommandIntent.allCases {
            for text in examplePhrasings(for: intent) { add(text, weight: 1) }
        }
        let values = slotValuesForLanguageModel()
        for phrase in phrases {
            for elements in phrase.expansions {
                let kinds = elements.compactMap { element -> SlotKind? in
                    if case .slot(let kind) = element { return kind }
                    return nil
                }
                guard let kind = kinds.first else {
                    add(elements.map { if case .word(let word) = $0 { return word } else { return "" } }.joined(separator: " "), weight: 1)
                    continue
                }
                // One slot per phrase in this language; a second one keeps its example value.
                let fillers = values[kind] ?? []
                for value in fillers {
                    let text = elements.map { element -> String in
                        switch element {
                        case .word(let word): return word
                        case .slot(let slot): return slot == kind ? value : (file.slotExamples[slot.rawValue] ?? "")
                        }
                    }.joined(separator: " ")
                    add(text, weight: 1 / Double(max(fillers.count, 1)))
                }
            }
        }
        return result
    }

    /// What each slot may hold, in words: every category name and group (singular and plural),
    /// the language names, and numbers as people say them (units, tens, "two hundred",
    /// "zero point five", "fifty percent", the fractions).
    func slotValuesForLanguageModel() -> [SlotKind: [String]] {
        let names = vocabulary.entries.keys.sorted()
        // Ties (several words for one number) broken by the word: a dictionary's order changes
        // from run to run, and with it which words `prefix` below keeps.
        let units = file.numbers.units.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key)
        let tens = file.numbers.tens.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key)
        let scales = file.numbers.scales.keys.sorted()
        let digits = file.numbers.units.filter { $0.value <= 9 }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key)
        var numbers = units + tens + tens.flatMap { ten in units.filter { file.numbers.units[$0]! <= 9 && file.numbers.units[$0]! > 0 }.map { "\(ten) \($0)" } }
        numbers += scales.flatMap { scale in units.prefix(10).map { "\($0) \(scale)" } }
        let percents = file.numbers.percent
        var fractions = digits.map { "\(digits.first ?? "zero") \(file.numbers.point) \($0)" } + digits.map { "\(file.numbers.point) \($0)" }
        fractions += tens.flatMap { ten in percents.map { "\(ten) \($0)" } }
        fractions += file.numbers.fractions.keys.sorted().flatMap { ["a \($0)", $0] }
        return [
            .category: names, .categories: names + names.prefix(20).map { "\($0) \(file.categories.conjunction) people" },
            .number: numbers, .fraction: fractions, .language: file.languages.keys.sorted(),
        ]
    }

    /// Lower-case words of letters and apostrophes: what a recogniser's dictionary holds.
    static func languageModelWords(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !($0.isLetter || $0 == "'") }).map(String.init)
    }
}

extension CommandLanguage {
    /// "{phrase}? Say yes or no." for a command to be carried out only after yes.
    public func confirmationQuestion(for command: Command) -> String {
        understandingReply(.confirmQuestion, ["phrase": spokenPhrase(for: command)])
    }
}
