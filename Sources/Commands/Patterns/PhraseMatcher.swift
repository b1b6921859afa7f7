/// A value read from the words standing where a pattern has a slot.
enum SlotValue: Sendable, Equatable {
    case categories(CategorySelection)
    case number(NumberReader.Reading)
    case language(LanguageChoice)
}

/// How well one concrete phrase fits what was said: the alignment's cost, and what stood where
/// the phrase has its slot.
struct PhraseMatch: Sendable {
    var intent: CommandIntent
    var elements: [PhrasePattern.Element]
    /// Token edit distance over the phrase's words: 1 per missing or extra word, a share of 1
    /// per misspelt word.
    var wordCost: Double
    /// 0 for a slot read exactly, a share of 1 for a near miss ("chiar"), 1 for words it cannot
    /// read or a slot left out.
    var slotCost: Double
    /// The words where the slot stands; nil when the slot was left out.
    var slotWords: [String]?
    /// What those words mean; nil when they mean nothing the slot accepts ("find a unicorn").
    var slotValue: SlotValue?

    var cost: Double { wordCost + slotCost }
    var wordCount: Int { elements.filter { if case .word = $0 { return true }; return false }.count }
    var hasSlot: Bool { elements.contains { if case .slot = $0 { return true }; return false } }
}

/// Aligns the user's words with concrete phrases by token edit distance (words substituted,
/// left out or added), where a slot takes any run of words its reader accepts. Reading a slot
/// is cached per span, since many phrases share slots.
struct PhraseMatcher {
    let readSlot: (SlotKind, ArraySlice<String>) -> (value: SlotValue, cost: Double)?
    /// No slot value is longer than this many words ("cars, buses, trucks and people").
    let longestSlotWords: Int

    /// The cost of words in a slot that mean nothing it accepts: one substitution, so "find a
    /// unicorn" still lines up with "find a {category}" better than with any other phrase.
    static let unreadableSlotCost = 1.0

    private enum Step { case start, word, skipElement, extraWord, slot(from: Int) }

    func match(_ words: [String], intent: CommandIntent, elements: [PhrasePattern.Element],
               cache: inout [SlotCacheKey: (value: SlotValue, cost: Double)?]) -> PhraseMatch {
        let n = words.count, m = elements.count
        var cost = [[Double]](repeating: [Double](repeating: .infinity, count: m + 1), count: n + 1)
        var step = [[Step]](repeating: [Step](repeating: .start, count: m + 1), count: n + 1)
        cost[0][0] = 0
        func relax(_ i: Int, _ j: Int, _ value: Double, _ how: Step) {
            if value < cost[i][j] { cost[i][j] = value; step[i][j] = how }
        }
        for i in 0...n {
            for j in 0...m {
                let here = cost[i][j]
                guard here.isFinite else { continue }
                if i < n { relax(i + 1, j, here + 1, .extraWord) }
                guard j < m else { continue }
                relax(i, j + 1, here + 1, .skipElement)
                switch elements[j] {
                case .word(let expected):
                    if i < n { relax(i + 1, j + 1, here + WordDistance.cost(heard: words[i], expected: expected), .word) }
                case .slot(let kind):
                    guard i < n else { continue }
                    for end in (i + 1)...min(n, i + longestSlotWords) {
                        let key = SlotCacheKey(kind: kind, start: i, end: end)
                        let reading: (value: SlotValue, cost: Double)?
                        if let cached = cache[key] { reading = cached } else {
                            reading = readSlot(kind, words[i..<end])
                            cache[key] = .some(reading)
                        }
                        relax(end, j + 1, here + (reading?.cost ?? Self.unreadableSlotCost), .slot(from: i))
                    }
                }
            }
        }
        // Walk back to find what stood in the slot.
        var slotWords: [String]?
        var slotValue: SlotValue?
        var slotCost = 0.0
        var i = n, j = m
        while i > 0 || j > 0 {
            let here = cost[i][j]
            switch step[i][j] {
            case .start: i = 0; j = 0
            case .word: i -= 1; j -= 1
            case .extraWord: i -= 1
            case .skipElement:
                j -= 1
                if case .slot = elements[j] { slotCost += here - cost[i][j] }
            case .slot(let from):
                if case .slot(let kind) = elements[j - 1] {
                    slotWords = Array(words[from..<i])
                    slotValue = cache[SlotCacheKey(kind: kind, start: from, end: i)].flatMap { $0?.value }
                }
                slotCost += here - cost[from][j - 1]
                i = from; j -= 1
            }
        }
        return PhraseMatch(intent: intent, elements: elements, wordCost: cost[n][m] - slotCost, slotCost: slotCost,
                           slotWords: slotWords, slotValue: slotValue)
    }
}

struct SlotCacheKey: Hashable {
    var kind: SlotKind
    var start: Int
    var end: Int
}
