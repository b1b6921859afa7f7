import Foundation

/// Contextual biasing (shallow fusion with a prefix tree): while Moonshine decodes, a token
/// that carries the text further along one of the command language's phrases ("stop
/// detecting", "assistive vision", a category name) is favoured by `nats per character` it
/// advances, and a token that breaks such a match gives that favour back. The bias only
/// re-ranks tokens the model itself already ranks among its few best (`candidates`, within
/// `reach` nats of its first choice): it tips close calls ("assist division" → "assistive
/// vision") but cannot put words in the user's mouth, so free speech still comes out as said.
///
/// Matches start at any word boundary of the text (a phrase may follow "please", the wake
/// phrase, or another command), and a completed phrase keeps its favour when a new word starts.
public struct PhraseBias: Sendable {
    /// Every prefix (in characters) of every phrase, normalised (`normalized`).
    let prefixes: Set<String>
    /// The prefixes that end where a word of the phrase ends ("stop", "stop detecting").
    let wordPrefixes: Set<String>
    let phrases: Set<String>
    public var natsPerCharacter: Float
    /// How many of the model's best tokens may be re-ranked.
    public var candidates: Int
    /// How far below the model's first choice (in nats) a token may be and still win by the bias.
    public var reach: Float

    public init(phrases: [String], natsPerCharacter: Float = 0.25, candidates: Int = 8, reach: Float = 3) {
        var prefixes = Set<String>()
        var wordPrefixes = Set<String>()
        var normalizedPhrases = Set<String>()
        for phrase in phrases {
            let text = Self.normalized(phrase)
            guard !text.isEmpty else { continue }
            normalizedPhrases.insert(text)
            var prefix = ""
            for character in text {
                if character == " " { wordPrefixes.insert(prefix) }
                prefix.append(character)
                prefixes.insert(prefix)
            }
            wordPrefixes.insert(prefix)
        }
        self.prefixes = prefixes
        self.wordPrefixes = wordPrefixes
        self.phrases = normalizedPhrases
        self.natsPerCharacter = natsPerCharacter
        self.candidates = candidates
        self.reach = reach
    }

    /// No bias at all (plain greedy decoding).
    public static let none = PhraseBias(phrases: [], natsPerCharacter: 0, candidates: 1, reach: 0)

    public var isEmpty: Bool { phrases.isEmpty || natsPerCharacter == 0 }

    /// The words as the command language spells them (`NeuralUtteranceRecognizer.spokenText`),
    /// so that a phrase is matched in the form the transcript will take.
    static func normalized(_ text: String) -> String {
        NeuralUtteranceRecognizer.spokenText(text)
    }

    /// How far the end of `text` has come along a phrase: the length in characters of the
    /// longest suffix starting at a word boundary that begins some phrase, counted up to its last
    /// whole word of the phrase, and whether that suffix is itself a whole phrase. A last word
    /// that only begins a word of the phrase earns nothing yet: "free" is no step towards
    /// "freeze" (counted, it put "free" for the product's own "three" in nine sentences of a
    /// hundred; BENCHMARKS.md, issue 37, thirty-first session), and a word made of several tokens
    /// earns its favour with the token that completes it ("assist" + "ive"). A trailing space
    /// (the start of a new word) counts only as the end of the words before it.
    func match(_ rawText: String) -> (depth: Int, complete: Bool) {
        let text = Self.normalized(rawText)
        guard !text.isEmpty else { return (0, false) }
        var best = (depth: 0, complete: false)
        var start = text.startIndex
        var words = 0
        // Word starts from the end backwards, at most 10 words (no phrase is longer).
        var index = text.endIndex
        while index > text.startIndex, words < 10 {
            let before = text.index(before: index)
            if before == text.startIndex || text[text.index(before: before)] == " " {
                start = before
                words += 1
                let suffix = String(text[start...])
                if prefixes.contains(suffix) {
                    let depth = wordPrefixes.contains(suffix) ? suffix.count : suffix.lastIndex(of: " ").map { suffix.distance(from: suffix.startIndex, to: $0) } ?? 0
                    if depth > best.depth { best = (depth, phrases.contains(suffix)) }
                }
            }
            index = before
        }
        return best
    }

    /// The bias for extending `text` by `piece`, in nats.
    func bonus(text: String, current: (depth: Int, complete: Bool), piece: String) -> Float {
        let next = match(text + piece)
        if next.depth >= current.depth { return Float(next.depth - current.depth) * natsPerCharacter }
        // A finished phrase followed by a new word keeps what it earned.
        if current.complete, piece.hasPrefix(" ") || Self.normalized(piece).isEmpty { return Float(next.depth) * natsPerCharacter }
        return -Float(current.depth - next.depth) * natsPerCharacter
    }
}
