/// How far apart two spellings are, for matching near misses ("scan know" → "scan now",
/// "chiar" → "chair"): optimal string alignment distance, i.e. Levenshtein plus adjacent
/// transpositions, because swapped letters are the commonest typing slip.
enum WordDistance {
    static func edits(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let substitution = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, table[i - 2][j - 2] + 1)
                }
                table[i][j] = best
            }
        }
        return table[a.count][b.count]
    }

    /// The cost of hearing or typing `heard` where `expected` was meant: 0 when equal, the share
    /// of letters changed when that is at most a third ("detecting" for "detection": 0.33), and 1
    /// (a different word) beyond that. A third keeps "know"/"now" and "chiar"/"chair" together
    /// while "cat"/"car" (one letter of three) is just within reach and "bus"/"cup" is not.
    static func cost(heard: String, expected: String) -> Double {
        if heard == expected { return 0 }
        let longest = max(heard.count, expected.count)
        guard longest > 0 else { return 1 }
        let share = Double(edits(heard, expected)) / Double(longest)
        return share <= nearMissShare ? share : 1
    }

    static let nearMissShare = 0.34
}
