import Foundation

/// The honesty filter: which recognised words may be said. Tesseract reads shapes in a patterned
/// sheet or a tree as words of low confidence ("ae", "=>", "Sie"); saying them would be worse than
/// silence, so a word must be confident and look like text.
public struct PlausibleText: Sendable, Equatable {
    /// Calibrated on the shared text set (see BENCHMARKS.md): Tesseract's junk on texture clusters
    /// below 70 (the highest on the picture without text: 73, a single letter) while real
    /// words on signs and pages mostly read 80–97.
    public static let defaultMinimumConfidence: Float = 75
    public var minimumConfidence: Float
    /// A lone word that is neither in the word list nor a number must reach this confidence (0–100).
    public static let loneWordConfidence: Float = 90

    public init(minimumConfidence: Float = PlausibleText.defaultMinimumConfidence) {
        self.minimumConfidence = minimumConfidence
    }

    /// The word as it may be said, or nil when it must not be.
    public func accepted(_ raw: String, confidence: Float, isDictionaryWord: Bool) -> String? {
        guard confidence >= minimumConfidence else { return nil }
        let word = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !word.isEmpty else { return nil }
        let letters = word.unicodeScalars.filter { CharacterSet.letters.contains($0) }.count
        let digits = word.unicodeScalars.filter { CharacterSet.decimalDigits.contains($0) }.count
        let alphanumerics = letters + digits
        let scalars = word.unicodeScalars.count
        // Mostly letters and digits: "12:30", "Car-Park", "(A4)" pass, "=»;" and "—“s~" do not.
        guard alphanumerics >= 1, Double(alphanumerics) >= 0.6 * Double(scalars) else { return nil }
        // A lone character is too often an edge read as "l", "I" or "1"; a lone digit is kept
        // only when very confident (a floor or platform number).
        if alphanumerics == 1 {
            guard digits == 1 ? confidence >= 90 : (isDictionaryWord && confidence >= 90) else { return nil }
        }
        // Four or more letters with no vowel is not a word in the languages read here ("Pn",
        // "rn" are shorter and filtered by confidence); numbers and codes ("CC22") are exempt.
        if letters >= 4 && digits == 0 {
            let vowels = CharacterSet(charactersIn: "aeiouyAEIOUYàâäéèêëîïôöùûüÿÀÂÄÉÈÊËÎÏÔÖÙÛÜŸ")
            if !word.unicodeScalars.contains(where: { vowels.contains($0) }) && !isDictionaryWord { return nil }
        }
        // The same character four times running is texture, not text ("iiii", "----").
        var run = 1
        var previous: Character?
        for character in word {
            run = character == previous ? run + 1 : 1
            if run >= 4 && !character.isNumber { return nil }
            previous = character
        }
        return word
    }

    /// Whether a block (a sign, a paragraph) may be said: it needs one word of three or more letters
    /// or digits, or a number. Lone fragments ("GA", "Cu", "(aN") are what texture leaves behind
    /// when a few of its shapes happen to pass the word filter.
    public func keeps(_ block: ReadBlock) -> Bool {
        let words = block.lines.flatMap(\.words)
        // A word standing alone has no neighbours to vouch for it: unless it is in the word list or
        // a number, it must be read with near certainty ("rar" on a wall is a pattern, "STAR" on a window is not).
        if words.count == 1, let only = words.first, !only.isDictionaryWord,
           !only.text.unicodeScalars.contains(where: { CharacterSet.decimalDigits.contains($0) }),
           only.confidence * 100 < Self.loneWordConfidence {
            return false
        }
        return words.contains { word in
            let alphanumerics = word.text.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }
            let digits = alphanumerics.filter { CharacterSet.decimalDigits.contains($0) }.count
            return alphanumerics.count >= 3 || (digits > 0 && digits == alphanumerics.count)
        }
    }
}
