import Foundation

/// Text cut into parts that each take at most a few seconds to say, at line ends where possible,
/// so no utterance runs past the 3-s limit the queue enforces (which would otherwise drop the end)
/// and a page can be stopped and continued between parts.
public enum SpokenParts {
    /// No utterance is longer than this (the product's rule for everything spoken).
    public static let defaultMaximumSeconds = 3.0

    /// How many words fit in `seconds` at `wordsPerMinute` (at least one).
    public static func wordsFitting(seconds: Double, wordsPerMinute: Int) -> Int {
        max(1, Int(Double(wordsPerMinute) * seconds / 60))
    }

    /// The reading's lines, cut into parts of at most `maximumWords` words. Lines are kept whole
    /// when they fit; a longer line is split between words. Blocks (separate signs) never share a part.
    public static func parts(of reading: TextReading, maximumWords: Int) -> [String] {
        var parts: [String] = []
        for block in reading.blocks {
            var current: [String] = []
            for line in block.lines {
                let words = line.words.map(\.text)
                if current.count + words.count > maximumWords, !current.isEmpty {
                    parts.append(current.joined(separator: " "))
                    current = []
                }
                var remaining = words[...]
                while remaining.count > maximumWords {
                    parts.append(remaining.prefix(maximumWords).joined(separator: " "))
                    remaining = remaining.dropFirst(maximumWords)
                }
                current += remaining
            }
            if !current.isEmpty { parts.append(current.joined(separator: " ")) }
        }
        return parts
    }
}
