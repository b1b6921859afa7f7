import Foundation

/// A small n-gram language model (trigram by default) counted from weighted sentences and
/// smoothed by interpolated Witten-Bell, written as an ARPA text file that pocketsphinx loads.
///
/// Witten-Bell: after a history h seen c(h) times, followed by T(h) distinct words,
///   p(w | h) = (c(h, w) + T(h) · p(w | h')) / (c(h) + T(h)),   h' = h without its first word,
/// down to unigrams interpolated with the uniform distribution over the vocabulary. In ARPA's
/// backoff form a seen n-gram carries this p, and the history carries the weight
/// T(h) / (c(h) + T(h)), which gives every unseen word exactly its interpolated share, so the
/// probabilities after every history sum to 1 (checked by the tests). Chosen over Kneser-Ney
/// because it needs no count-of-counts, which fractional weights and a few hundred sentences
/// leave meaningless.
public struct NGramLanguageModel: Sendable {
    public static let sentenceStart = "<s>", sentenceEnd = "</s>"

    public let order: Int
    /// Every word the model can predict (`</s>` included, `<s>` not), sorted.
    public let vocabulary: [String]
    /// Per n (1…order), n-gram → probability (natural, not log).
    let probabilities: [[[String]: Double]]
    /// Per n (1…order-1), history → backoff weight.
    let backoffWeights: [[[String]: Double]]

    /// `sentences`: word lists with weights (a sentence counts `weight` times; fractions allowed).
    public init(sentences: [(words: [String], weight: Double)], order: Int = 3) {
        precondition(order >= 1)
        self.order = order
        // counts[n-1][history] = (word → count); n = length of the history + 1.
        var counts = [[[String]: [String: Double]]](repeating: [:], count: order)
        var words = Set([Self.sentenceEnd])
        for sentence in sentences where !sentence.words.isEmpty && sentence.weight > 0 {
            words.formUnion(sentence.words)
            let padded = [Self.sentenceStart] + sentence.words + [Self.sentenceEnd]
            for position in 1..<padded.count {
                for n in 1...order where position - (n - 1) >= 0 {
                    let history = Array(padded[(position - n + 1)..<position])
                    counts[n - 1][history, default: [:]][padded[position], default: 0] += sentence.weight
                }
            }
        }
        vocabulary = words.sorted()
        let uniform = 1 / Double(vocabulary.count)
        var probabilities = [[[String]: Double]](repeating: [:], count: order)
        var backoffs = [[[String]: Double]](repeating: [:], count: max(order - 1, 0))

        // Unigrams: every vocabulary word, interpolated with the uniform distribution.
        let unigramCounts = counts[0][[]] ?? [:]
        let total = unigramCounts.values.reduce(0, +)
        let distinct = Double(unigramCounts.count)
        for word in vocabulary {
            probabilities[0][[word]] = (unigramCounts[word, default: 0] + distinct * uniform) / (total + distinct)
        }
        func lower(_ ngram: [String]) -> Double { Self.lookup(Array(ngram.dropFirst()), probabilities, backoffs) }
        if order >= 2 {
            for n in 2...order {
                for (history, followers) in counts[n - 1] {
                    let seen = followers.values.reduce(0, +), kinds = Double(followers.count)
                    for (word, count) in followers {
                        probabilities[n - 1][history + [word]] = (count + kinds * lower(history + [word])) / (seen + kinds)
                    }
                    backoffs[n - 2][history] = kinds / (seen + kinds)
                }
            }
        }
        self.probabilities = probabilities
        backoffWeights = backoffs
    }

    /// p(word | history) as the ARPA file gives it (the longest n-gram present, else the
    /// history's backoff weight times the shorter history's probability).
    public func probability(of word: String, after history: [String]) -> Double {
        Self.lookup(Array(history.suffix(order - 1)) + [word], probabilities, backoffWeights)
    }

    private static func lookup(_ ngram: [String], _ probabilities: [[[String]: Double]], _ backoffs: [[[String]: Double]]) -> Double {
        if ngram.count <= probabilities.count, let known = probabilities[ngram.count - 1][ngram] { return known }
        guard ngram.count > 1 else { return 0 }
        let history = Array(ngram.dropLast())
        let weight = history.count - 1 < backoffs.count ? backoffs[history.count - 1][history] ?? 1 : 1
        return weight * lookup(Array(ngram.dropFirst()), probabilities, backoffs)
    }

    /// The histories the model conditions on (for checking that each distribution sums to 1).
    public var histories: [[String]] { [[]] + backoffWeights.flatMap(\.keys) }

    /// The model in ARPA text form (log10 probabilities and backoff weights). `<s>` is listed
    /// among the unigrams with the conventional -99 (it is never predicted) and its backoff weight.
    public var arpa: String {
        func log10Text(_ value: Double) -> String { String(format: "%.7f", Foundation.log10(value)) }
        var sections: [String] = []
        var header = ["", "\\data\\"]
        var bodies: [[String]] = []
        for n in 1...order {
            var lines: [String] = []
            var entries = probabilities[n - 1].sorted { $0.key.joined(separator: " ") < $1.key.joined(separator: " ") }
            if n == 1 { entries.insert(([Self.sentenceStart], 0), at: 0) }
            for (ngram, probability) in entries {
                var line = (ngram == [Self.sentenceStart] ? "-99" : log10Text(probability)) + "\t" + ngram.joined(separator: " ")
                if n < order, let weight = backoffWeights[n - 1][ngram] { line += "\t" + log10Text(weight) }
                lines.append(line)
            }
            header.append("ngram \(n)=\(lines.count)")
            bodies.append(["", "\\\(n)-grams:"] + lines)
        }
        sections.append(header.joined(separator: "\n"))
        sections += bodies.map { $0.joined(separator: "\n") }
        return sections.joined(separator: "\n") + "\n\n\\end\\\n"
    }
}
