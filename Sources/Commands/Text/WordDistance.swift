/// How far apart two spellings are, for matching near misses ("scan know" → "scan now",
/// "chiar" → "chair"): optimal string alignment distance, i.e. Levenshtein plus adjacent
/// transpositions, because swapped letters are the commonest typing slip.
enum WordDistance {
    static func edits(_ a: String, _ b: String) -> Int {
        edits(Array(a.unicodeScalars), Array(b.unicodeScalars))
    }

    /// Three rolling rows instead of a table: this runs for every word pair a phrase is
    /// compared with, so it must not allocate much.
    static func edits(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, beforePrevious[j - 2] + 1)
                }
                current[j] = best
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }

    /// The cost of hearing or typing `heard` where `expected` was meant: 0 when equal, the share
    /// of letters changed when that is at most a third ("detecting" for "detection": 0.33), and 1
    /// (a different word) beyond that. A third keeps "know"/"now" and "chiar"/"chair" together
    /// while "cat"/"car" (one letter of three) is just within reach and "bus"/"cup" is not.
    static func cost(heard: String, expected: String) -> Double {
        if heard == expected { return 0 }
        let a = Array(heard.unicodeScalars), b = Array(expected.unicodeScalars)
        let longest = max(a.count, b.count)
        guard longest > 0 else { return 1 }
        // At least the difference in length is edited: most pairs are rejected without the table.
        if Double(abs(a.count - b.count)) / Double(longest) > nearMissShare { return 1 }
        let share = Double(edits(a, b)) / Double(longest)
        return share <= nearMissShare ? share : 1
    }

    static let nearMissShare = 0.34
}
