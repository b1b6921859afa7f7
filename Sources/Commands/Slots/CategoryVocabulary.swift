import AssistCore

/// Every way the user may name detector categories in one language: the detector's class names
/// and their plurals, synonyms ("sofa" → couch) and groups ("vehicles" → car, bus, …). Only the
/// detector's own classes are ever produced, so a category the model cannot see is refused
/// instead of silently never being found.
struct CategoryVocabulary: Sendable {
    struct Entry: Sendable, Equatable {
        var categories: [String]
        var singular: String
        var plural: String
    }

    /// Spoken term (words joined by single spaces) → what it stands for.
    let entries: [String: Entry]
    /// Words that may stand between names in a list and mean nothing themselves ("and", "the").
    let listWords: Set<String>
    let conjunction: String
    private let rules: LanguageFile.Categories
    /// Longest term, in words: spans longer than this are never one name.
    let longestTermWords: Int
    /// Words for things the detector cannot see → their plural, for an honest answer.
    let notDetectable: [String: String]
    /// The language's own words (its phrases' and examples'): a word the user meant as itself is
    /// never a near miss of a thing's name ("skip them" is not "ships", "look" is not "book").
    var wordsOfTheLanguage: Set<String> = []

    init(knownCategories: [String], rules: LanguageFile.Categories) {
        self.rules = rules
        listWords = Set(rules.listWords)
        conjunction = rules.conjunction
        let known = Set(knownCategories.map { $0.lowercased() })
        var entries: [String: Entry] = [:]
        func add(_ term: String, _ entry: Entry) {
            let key = term.lowercased()
            if entries[key] == nil { entries[key] = entry }
        }
        // Class names first, so a synonym or group never shadows a real class of the same name.
        for category in knownCategories.map({ $0.lowercased() }) {
            let entry = Entry(categories: [category], singular: category, plural: Self.plural(of: category, rules: rules))
            add(category, entry)
            add(entry.plural, entry)
        }
        for (name, group) in rules.groups.sorted(by: { $0.key < $1.key }) {
            // Members from the one definition; a language file names its groups, not their members.
            let members = (CategoryGroups.members[name] ?? []).filter(known.contains)
            guard !members.isEmpty else { continue }
            let entry = Entry(categories: members, singular: group.singular, plural: name)
            add(name, entry)
            add(group.singular, entry)
        }
        let notDetectable = rules.notDetectable ?? [:]
        for (word, category) in rules.synonyms.sorted(by: { $0.key < $1.key }) where known.contains(category) {
            let entry = Entry(categories: [category], singular: word, plural: Self.plural(of: word, rules: rules))
            // A synonym's plural may name something else the model cannot see ("glasses").
            for term in [word, entry.plural] where notDetectable[term] == nil { add(term, entry) }
        }
        self.entries = entries
        self.notDetectable = notDetectable.filter { entries[$0.key] == nil }
        longestTermWords = entries.keys.map { $0.split(separator: " ").count }.max() ?? 1
    }

    func plural(of name: String) -> String { Self.plural(of: name, rules: rules) }

    static func plural(of name: String, rules: LanguageFile.Categories) -> String {
        if let irregular = rules.irregularPlurals[name] { return irregular }
        for rule in rules.pluralRules where rule.count == 2 && name.hasSuffix(rule[0]) {
            return String(name.dropLast(rule[0].count)) + rule[1]
        }
        return name + rules.defaultPluralSuffix
    }

    /// Whether `word` is one of the language's indefinite articles ("a", "an").
    func isIndefiniteArticle(_ word: String) -> Bool {
        word == rules.indefiniteArticle.beforeVowel || word == rules.indefiniteArticle.otherwise
    }

    /// "a chair", "an umbrella".
    func withArticle(_ singular: String) -> String {
        let article = rules.indefiniteArticle
        if article.notTaken?.contains(singular) == true { return singular }
        let startsWithVowel = singular.first.map { article.vowels.contains($0) } ?? false
        return "\(startsWithVowel ? article.beforeVowel : article.otherwise) \(singular)"
    }

    /// Reads `words` as a list of names (or exactly one when `single`); returns the selection and
    /// how far from exact it was (0 exact; near misses cost their share of changed letters).
    func read(_ words: ArraySlice<String>, single: Bool, memo: LookupMemo) -> (selection: CategorySelection, cost: Double)? {
        let words = Array(words)
        let count = words.count
        // best[i]: cheapest reading of words[0..<i] as names and list words.
        var best: [(cost: Double, names: [Entry])?] = Array(repeating: nil, count: count + 1)
        best[0] = (0, [])
        for start in 0..<count {
            guard let reached = best[start] else { continue }
            // "The girl's umbrella" names the umbrella: an owner said before another word is not
            // what is asked about (a possessive, "girl's" or "kids'", followed by something).
            if listWords.contains(words[start]) || (start + 1 < count && Self.isPossessive(words[start])) {
                relax(&best, at: start + 1, cost: reached.cost, names: reached.names)
            }
            for length in 1...min(longestTermWords, count - start) {
                let term = words[start..<(start + length)].joined(separator: " ")
                guard let (entry, cost) = memo.lookUp(term, in: self) else { continue }
                relax(&best, at: start + length, cost: reached.cost + cost, names: reached.names + [entry])
            }
        }
        guard let reading = best[count], !reading.names.isEmpty, !single || reading.names.count == 1 else { return nil }
        var categories: [String] = []
        for entry in reading.names { for category in entry.categories where !categories.contains(category) { categories.append(category) } }
        let selection = CategorySelection(categories: categories,
                                          singular: list(reading.names.map(\.singular)),
                                          plural: list(reading.names.map(\.plural)))
        return (selection, reading.cost)
    }

    /// "girl's", "kids'" (as the normalizer keeps them).
    static func isPossessive(_ word: String) -> Bool { word.count > 2 && (word.hasSuffix("'s") || word.hasSuffix("s'")) }
    /// The word without its possessive mark ("telly's" → "telly", "neighbours'" → "neighbours").
    static func withoutPossessive(_ word: String) -> String {
        guard isPossessive(word) else { return word }
        return String(word.hasSuffix("'s") ? word.dropLast(2) : word.dropLast())
    }

    private func relax(_ best: inout [(cost: Double, names: [Entry])?], at index: Int, cost: Double, names: [Entry]) {
        if let current = best[index], current.cost < cost || (current.cost == cost && current.names.count <= names.count) { return }
        best[index] = (cost, names)
    }

    /// Terms already looked up for one utterance: every slot span reads the same words again.
    final class LookupMemo {
        private var found: [String: (Entry, Double)?] = [:]

        init() {}

        func lookUp(_ term: String, in vocabulary: CategoryVocabulary) -> (Entry, Double)? {
            if let known = found[term] { return known }
            let result = vocabulary.lookUp(term)
            found[term] = .some(result)
            return result
        }
    }

    /// An exact term, else the nearest term within a near miss ("chiar" → chair).
    func lookUp(_ term: String) -> (Entry, Double)? {
        if let entry = entries[term] { return (entry, 0) }
        // Never a near miss for a thing the model lacks: "stairs" is not "chairs".
        if notDetectable[term] != nil || wordsOfTheLanguage.contains(term) { return nil }
        var nearest: (entry: Entry, cost: Double, term: String)?
        for (candidate, entry) in entries {
            let cost = WordDistance.cost(heard: term, expected: candidate)
            guard cost < 1 else { continue }
            if nearest == nil || cost < nearest!.cost || (cost == nearest!.cost && candidate < nearest!.term) {
                nearest = (entry, cost, candidate)
            }
        }
        return nearest.map { ($0.entry, $0.cost) }
    }

    /// The plural of the first thing named in `words` that the detector cannot see, if any:
    /// "find the stairs" → "stairs".
    func undetectable(in words: [String]) -> String? {
        for start in words.indices {
            for length in stride(from: min(3, words.count - start), through: 1, by: -1) {
                if let plural = notDetectable[words[start..<(start + length)].joined(separator: " ")] { return plural }
            }
        }
        return nil
    }

    /// How many words the name of several words that the detector cannot see, starting at
    /// `start`, takes ("bus stop": 2), if one starts there: its first word names no thing of
    /// its own ("where is the bus stop" asks for no bus).
    func undetectableLength(in words: [String], at start: Int) -> Int? {
        guard words.count - start >= 2 else { return nil }
        return stride(from: min(3, words.count - start), through: 2, by: -1).first {
            notDetectable[words[start..<(start + $0)].joined(separator: " ")] != nil
        }
    }

    /// "chairs", "cars and people", "cars, buses and people".
    func list(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " \(conjunction) " + names.last!
    }
}
