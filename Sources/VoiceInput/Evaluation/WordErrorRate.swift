/// Word error rate: (substitutions + deletions + insertions) / reference words, from the
/// Levenshtein alignment of the word sequences (case and punctuation ignored).
public struct WordErrorCount: Sendable, Equatable, Codable {
    public var errors: Int
    public var referenceWords: Int

    public init(errors: Int = 0, referenceWords: Int = 0) {
        self.errors = errors
        self.referenceWords = referenceWords
    }

    public var rate: Double { referenceWords == 0 ? 0 : Double(errors) / Double(referenceWords) }

    public static func + (a: WordErrorCount, b: WordErrorCount) -> WordErrorCount {
        WordErrorCount(errors: a.errors + b.errors, referenceWords: a.referenceWords + b.referenceWords)
    }

    public init(reference: String, hypothesis: String) {
        let ref = Self.words(reference), hyp = Self.words(hypothesis)
        var previous = Array(0...hyp.count)
        for (i, word) in ref.enumerated() {
            var current = [i + 1] + [Int](repeating: 0, count: hyp.count)
            for j in 0..<hyp.count {
                current[j + 1] = min(previous[j] + (word == hyp[j] ? 0 : 1), previous[j + 1] + 1, current[j] + 1)
            }
            previous = current
        }
        self.init(errors: previous[hyp.count], referenceWords: ref.count)
    }

    static func words(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "'") }).map(String.init)
    }
}
