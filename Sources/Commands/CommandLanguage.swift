import AssistCore
import Foundation

/// The command language of one spoken language: what can be said or typed, read from
/// `Languages/<language>.json`, turned into `Command`s, and the sentences that answer them.
///
/// Categories are the running detector's class names (the 80 COCO names for the default model),
/// handed in by the caller, so "find a giraffe" is understood only by a model that sees giraffes.
public struct CommandLanguage: Sendable {
    public let language: String
    /// The detector's class names this language was built for, lower-cased, in model order.
    public let knownCategories: [String]
    let file: LanguageFile
    let normalizer: TextNormalizer
    var vocabulary: CategoryVocabulary
    let numbers: NumberReader
    /// Lower-cased language name → choice.
    let languages: [String: LanguageChoice]
    /// Every intent's patterns, in file order, with their concrete phrases.
    let phrases: [(intent: CommandIntent, pattern: PhrasePattern, expansions: [[PhrasePattern.Element]])]
    /// No phrase can come within `suggestionShare` of more words than this: each word said beyond
    /// a phrase's words and its slot's costs 1. Longer lines (a paragraph pasted into the control
    /// socket) are not understood at once, instead of being aligned with every phrase (seconds).
    let longestMatchableWords: Int
    /// Every word the language itself uses: its phrases', its examples', the names of things.
    let knownWords: Set<String>
    /// The most words a slot takes ("the red fire hydrant on the left" is long).
    static let longestSlotWords = 8

    /// Accept a phrase whose words are off by at most this share of its length (one slip in three
    /// words); beyond, and up to `suggestionShare`, offer it as "Did you mean …?".
    static let acceptedShare = 0.34
    static let suggestionShare = 0.5
    /// At most one near-miss word (no wrong or missing word) around a value that is not known.
    static let unknownValueWordCost = 0.5

    /// The language shipped for `language` ("en").
    public init(language: String = "en", categories: [String]) throws {
        try self.init(file: SentenceFiles.load(LanguageFile.self, what: "spoken commands", language: language,
                                               folder: "Languages", in: .module), categories: categories)
    }

    /// A language from a file's JSON; every pattern is checked here, so a bad file fails at
    /// start-up and never in the middle of a session.
    public init(json: Data, categories: [String]) throws {
        let file: LanguageFile
        do { file = try JSONDecoder().decode(LanguageFile.self, from: json) } catch {
            throw CommandLanguageError.unreadable(language: "this language", detail: String(describing: error))
        }
        try self.init(file: file, categories: categories)
    }

    private init(file: LanguageFile, categories: [String]) throws {
        self.file = file
        language = file.language
        knownCategories = categories.map { $0.lowercased() }
        var normalizer = TextNormalizer(contractions: file.contractions, percentWord: file.numbers.percent.first ?? "percent",
                                    leadingFillers: file.fillers.leading.map { $0.split(separator: " ").map(String.init) },
                                    anywhereFillers: Set(file.fillers.anywhere))
        normalizer.address = (file.fillers.address ?? []).map { $0.split(separator: " ").map(String.init) }
        self.normalizer = normalizer
        vocabulary = CategoryVocabulary(knownCategories: knownCategories, rules: file.categories)
        numbers = NumberReader(words: file.numbers)
        languages = Dictionary(uniqueKeysWithValues: file.languages.map { name, code in
            (name.lowercased(), LanguageChoice(code: code, name: name.prefix(1).uppercased() + name.dropFirst()))
        })
        var phrases: [(CommandIntent, PhrasePattern, [[PhrasePattern.Element]])] = []
        for intent in CommandIntent.allCases {
            guard let entry = file.intents[intent.rawValue], !entry.phrases.isEmpty else {
                throw CommandLanguageError.missingIntent(language: file.language, intent: intent.rawValue)
            }
            for text in entry.phrases {
                let pattern = try PhrasePattern(parsing: text)
                guard pattern.slots == Set(intent.slot.map { [$0] } ?? []) else {
                    throw CommandLanguageError.wrongSlot(intent: intent.rawValue, pattern: text)
                }
                phrases.append((intent, pattern, pattern.expansions))
            }
        }
        self.phrases = phrases
        var knownWords = phrases.reduce(into: Set<String>()) { $0.formUnion($1.1.words) }
        for entry in file.intents.values {
            for example in entry.examples ?? [] { knownWords.formUnion(normalizer.words(example)) }
        }
        for term in Array(vocabulary.entries.keys) + Array(vocabulary.notDetectable.keys) + Array(languages.keys) {
            knownWords.formUnion(term.split(separator: " ").map(String.init))
        }
        self.knownWords = knownWords
        vocabulary.wordsOfTheLanguage = knownWords.subtracting(vocabulary.entries.keys)
        longestMatchableWords = phrases.flatMap(\.2).map { elements in
            let words = elements.filter { if case .word = $0 { return true }; return false }.count
            let slots = elements.count - words
            return words + slots * Self.longestSlotWords + Int(Self.suggestionShare * Double(max(1, words)))
        }.max() ?? 0
        for sentence in ControlSentence.allCases where file.control[sentence.rawValue] == nil {
            throw CommandLanguageError.missingSentence(language: file.language, name: sentence.rawValue)
        }
    }

    /// The languages with a file in `Languages/`, sorted.
    public static func bundledLanguages() -> [String] {
        SentenceFiles.languages(folder: "Languages", in: .module)
    }

    /// The language `code` names, as this language's file names it ("en" → "English"); the code
    /// itself for one the file does not name.
    public func name(ofLanguage code: String) -> String {
        languages.values.first { $0.code == code }?.name ?? code
    }

    // MARK: Understanding

    /// What `text` (typed, or the recogniser's words) asks for.
    public func interpret(_ text: String) -> Interpretation {
        patternMatch(normalizer.words(text)).interpretation
    }

    /// The interpretation of `words` by the phrase patterns, and whether it was exact: every word
    /// of a phrase said as written and the value read without a near miss.
    /// `valueExact`: the slot, if any, was read without a near miss ("dgo" is asked about).
    func patternMatch(_ words: [String]) -> (interpretation: Interpretation, exact: Bool, valueExact: Bool) {
        guard !words.isEmpty, words.count <= longestMatchableWords else { return (.notUnderstood, false, false) }
        guard let best = bestMatch(words) else { return (.notUnderstood, false, false) }
        let allowance = Double(max(1, best.wordCount))
        let slotLeftOut = best.hasSlot && best.slotWords == nil
        if best.wordCost <= Self.acceptedShare * allowance, !slotLeftOut {
            if let command = command(from: best) { return (.understood(command), best.cost == 0, best.slotCost == 0) }
            // Words it cannot read in the slot are only named back when the rest was said
            // nearly right: "what is the weather" is not "where is the {category}".
            if let kind = best.intent.slot, best.wordCost <= Self.unknownValueWordCost {
                let heard = unknownThing(best.slotWords ?? [])
                // "Find the loo, can you guide me": the thing is known, the words after it were
                // more than the phrase holds. Not "I cannot detect loo": offered, not refused.
                if kind == .category || kind == .categories,
                   let reading = vocabulary.read(heard[...], single: kind == .category, memo: CategoryVocabulary.LookupMemo()),
                   reading.cost == 0 {
                    var offered = best
                    offered.slotWords = heard
                    offered.slotValue = .categories(reading.selection)
                    return (.unclear(closest: phrase(for: offered), command: Command(best.intent, categories: reading.selection)), false, false)
                }
                return (.unknownValue(best.intent, slot: kind, heard: heard.joined(separator: " ")), false, false)
            }
        }
        // A phrase said without its value is offered with the file's example value ("set confidence
        // threshold to zero point five"); but where words were said in the value's place and none
        // could be read, the example would stand in for what the user said ("Did you mean: are
        // there chair ahead?" for "are there people looking at me"): no suggestion then.
        let valueReplaced = best.slotValue == nil && !(best.slotWords ?? []).isEmpty
        if best.wordCost <= Self.suggestionShare * allowance, best.slotCost <= 1 || !best.hasSlot, !valueReplaced {
            return (.unclear(closest: phrase(for: best), command: command(from: best)), false, false)
        }
        return (.notUnderstood, false, false)
    }

    /// What was said in a value's place, as far as the first word of the language after it: "find
    /// the gazebo, can you guide me" names a gazebo, not "gazebo can you guide me".
    private func unknownThing(_ words: [String]) -> [String] {
        guard let first = words.first else { return [] }
        return [first] + words.dropFirst().prefix { !vocabulary.wordsOfTheLanguage.contains($0) }
    }

    /// The phrase (of `intent` only, when given) closest to `words`.
    func bestMatch(_ words: [String], intent: CommandIntent? = nil) -> PhraseMatch? {
        let memo = CategoryVocabulary.LookupMemo()
        let matcher = PhraseMatcher(readSlot: { readSlot($0, $1, memo: memo) }, longestSlotWords: Self.longestSlotWords)
        var cache: [SlotCacheKey: (value: SlotValue, cost: Double)?] = [:]
        var best: PhraseMatch?
        for phrase in phrases where intent == nil || phrase.intent == intent {
            for elements in phrase.expansions {
                if let current = best, matcher.lowerBound(words, elements) > current.cost + 1e-9 { continue }
                let candidate = matcher.match(words, intent: phrase.intent, elements: elements, cache: &cache)
                if let current = best, !Self.isBetter(candidate, than: current) { continue }
                best = candidate
            }
        }
        return best
    }

    /// Cheaper first; on equal cost the phrase that is off by the smaller share of its length.
    private static func isBetter(_ a: PhraseMatch, than b: PhraseMatch) -> Bool {
        if abs(a.cost - b.cost) > 1e-9 { return a.cost < b.cost }
        return a.cost / Double(max(1, a.elements.count)) < b.cost / Double(max(1, b.elements.count)) - 1e-9
    }

    private func readSlot(_ kind: SlotKind, _ words: ArraySlice<String>,
                          memo: CategoryVocabulary.LookupMemo) -> (value: SlotValue, cost: Double)? {
        switch kind {
        case .category, .categories:
            return vocabulary.read(words, single: kind == .category, memo: memo).map { (.categories($0.selection), $0.cost) }
        case .fraction, .number:
            return numbers.read(words).map { (.number($0), 0) }
        case .language:
            let name = words.joined(separator: " ")
            if let choice = languages[name] { return (.language(choice), 0) }
            var nearest: (choice: LanguageChoice, cost: Double)?
            for (known, choice) in languages.sorted(by: { $0.key < $1.key }) {
                let cost = WordDistance.cost(heard: name, expected: known)
                if cost < 1, cost < (nearest?.cost ?? 1) { nearest = (choice, cost) }
            }
            guard let nearest else { return nil }
            return (SlotValue.language(nearest.choice), nearest.cost)
        }
    }

    private func command(from match: PhraseMatch) -> Command? {
        guard let kind = match.intent.slot else { return Command(match.intent) }
        switch (kind, match.slotValue) {
        case (.category, .categories(let selection)?), (.categories, .categories(let selection)?):
            return Command(match.intent, categories: selection)
        case (.fraction, .number(let reading)?):
            // "fifty percent", and a bare "50" (nobody means a threshold of fifty), are percentages.
            let fraction = reading.isPercent || reading.value > 1 ? reading.value / 100 : reading.value
            return Command(match.intent, number: fraction)
        case (.number, .number(let reading)?):
            return Command(match.intent, number: reading.value)
        case (.language, .language(let choice)?):
            return Command(match.intent, language: choice)
        default:
            return nil
        }
    }

    /// The phrase as it should have been said, with the slot as heard or, if it was not
    /// understood, the language file's example value: "find a chair".
    private func phrase(for match: PhraseMatch) -> String {
        match.elements.map { element -> String in
            switch element {
            case .word(let word): return word
            case .slot(let kind):
                if match.slotValue != nil, let heard = match.slotWords { return heard.joined(separator: " ") }
                return file.slotExamples[kind.rawValue] ?? kind.rawValue
            }
        }.joined(separator: " ")
    }

    // MARK: Answering

    /// The one-sentence confirmation of `command`, with `values` filling placeholders the caller
    /// knows (`{volume}`, `{rate}`, …): "Chairs will no longer be announced."
    public func confirmation(for command: Command, values: [String: String] = [:]) -> String {
        guard let template = file.intents[command.intent.rawValue]?.confirmation else { return "" }
        var filled = values
        if let selection = command.categories {
            filled["singular"] = selection.singular
            filled["plural"] = selection.plural
            filled["a singular"] = vocabulary.withArticle(selection.singular)
        }
        if let number = command.number {
            filled["number"] = Self.format(number)
            filled["percent"] = Self.format((number * 100).rounded())
        }
        if let language = command.language { filled["language"] = language.name }
        let sentence = Self.sentence(template, filled)
        // A value only the session knows ({volume}, {rate}, {report}) was not given: say what was
        // understood rather than a template ("Increase volume.").
        guard sentence.contains("{") else { return sentence }
        return Self.sentence(spokenPhrase(for: command), [:]) + "."
    }

    /// The answer to anything that was not understood as a command.
    public func reply(to interpretation: Interpretation) -> String {
        let replies = file.replies
        switch interpretation {
        case .understood(let command):
            return confirmation(for: command)
        case .unknownValue(_, let slot, let heard):
            switch slot {
            case .category, .categories:
                if let plural = vocabulary.undetectable(in: heard.split(separator: " ").map(String.init)),
                   let sentence = replies.cannotRecognise {
                    return Self.sentence(sentence, ["plural": plural])
                }
                return Self.sentence(replies.unknownCategory, ["heard": heard])
            case .fraction, .number: return Self.sentence(replies.unknownNumber, ["heard": heard])
            case .language: return Self.sentence(replies.unknownLanguage, ["heard": heard])
            }
        case .unclear(let closest, _):
            return replies.notUnderstood + " " + Self.sentence(replies.didYouMean, ["phrase": closest])
        case .notUnderstood:
            return replies.notUnderstood + " " + replies.sayHelp
        }
    }

    /// Said when a question was answered no or too late: nothing was done.
    public var cancelledSentence: String { understandingReply(.cancelled) }

    /// Detector categories as a selection, for sentences about them ("cars and buses").
    public func selection(of categories: [String]) -> CategorySelection {
        CategorySelection(categories: categories, singular: vocabulary.list(categories),
                          plural: vocabulary.list(categories.map(vocabulary.plural(of:))))
    }

    /// "a chair", "an umbrella": a thing named in the singular, with its article.
    public func withArticle(_ singular: String) -> String { vocabulary.withArticle(singular) }

    /// A sentence of the control layer with its placeholders filled.
    public func sentence(_ name: ControlSentence, _ values: [String: String] = [:]) -> String {
        Self.sentence(file.control[name.rawValue] ?? name.rawValue, values)
    }

    /// The phrase offered for `intent` in help ("find a chair").
    public func example(for intent: CommandIntent) -> String {
        file.intents[intent.rawValue]?.example ?? intent.rawValue
    }

    /// "In continuous mode you can say: scan now, find a chair, …" for `mode`
    /// ("continuous", "on-demand", "explore", "navigate", "find").
    public func help(mode: String) -> String {
        let intents = (file.help.modes[mode] ?? []) + file.help.always
        let examples = intents.compactMap { CommandIntent(rawValue: $0) }.map(example(for:))
        return Self.sentence(file.help.intro, ["mode": mode, "examples": vocabulary.list(examples)]) + " " + file.help.closing
    }

    /// The first-run walkthrough, one sentence each.
    public var tutorial: [String] { file.tutorial }

    /// "I can detect 80 kinds of object: people, bicycles, …" — the model's own categories.
    public func categoriesSentence() -> String {
        let names = knownCategories.map(vocabulary.plural(of:))
        return Self.sentence(file.replies.listCategories, ["count": String(names.count), "list": vocabulary.list(names)])
    }

    /// The sentence's placeholders filled and its first letter capitalised.
    static func sentence(_ template: String, _ values: [String: String]) -> String {
        SentenceFiles.capitalized(SentenceFiles.fill(template, values))
    }

    static func format(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
        return String(format: "%g", value)
    }
}
