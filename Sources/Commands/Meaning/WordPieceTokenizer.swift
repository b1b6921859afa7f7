import Foundation

/// BERT's uncased WordPiece tokenizer, as all-MiniLM-L6-v2 was trained with: text cleaned,
/// lower-cased, accents stripped, split on whitespace and punctuation (each CJK ideograph a word
/// of its own), then each word cut greedily into the longest pieces in the vocabulary, pieces
/// after the first written with `##`. A word that cannot be cut, or is longer than 100
/// characters, becomes `[UNK]`. The sequence is `[CLS] … [SEP]`, at most `maximumLength` ids.
public struct WordPieceTokenizer: Sendable {
    /// Piece → id (the line number in vocab.txt, from 0).
    let ids: [String: Int]
    public let classifierID: Int
    public let separatorID: Int
    public let unknownID: Int
    public let maximumLength: Int
    /// The reference tokenizer's limit on one word, in characters.
    static let longestWordCharacters = 100

    /// Reads `vocab.txt` (one piece per line).
    public init(vocabulary url: URL, maximumLength: Int = 256) throws(MeaningModelError) {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw .fileMissing(path: url.path) }
        try self.init(vocabularyText: text, maximumLength: maximumLength)
    }

    public init(vocabularyText text: String, maximumLength: Int = 256) throws(MeaningModelError) {
        var ids: [String: Int] = [:]
        var index = 0
        text.enumerateLines { line, _ in
            if ids[line] == nil { ids[line] = index }
            index += 1
        }
        guard let cls = ids["[CLS]"], let sep = ids["[SEP]"], let unk = ids["[UNK]"] else {
            throw .badVocabulary(detail: "it lacks [CLS], [SEP] or [UNK]")
        }
        self.ids = ids
        classifierID = cls
        separatorID = sep
        unknownID = unk
        self.maximumLength = max(2, maximumLength)
    }

    /// The token ids of `text`, `[CLS]` and `[SEP]` included.
    public func ids(for text: String) -> [Int] {
        var result = [classifierID]
        for word in basicWords(text) {
            result += pieces(of: word)
            if result.count >= maximumLength - 1 { break }
        }
        if result.count > maximumLength - 1 { result.removeLast(result.count - (maximumLength - 1)) }
        return result + [separatorID]
    }

    /// Words after cleaning, lower-casing, accent stripping and punctuation splitting.
    func basicWords(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        func flush() {
            if !current.isEmpty { words.append(current); current = "" }
        }
        for scalar in text.unicodeScalars {
            if scalar.value == 0 || scalar.value == 0xFFFD || isControl(scalar) { continue }
            if isWhitespace(scalar) { flush(); continue }
            if isCJK(scalar) || isPunctuation(scalar) {
                flush()
                words.append(normalized(String(scalar)))
                continue
            }
            current.unicodeScalars.append(scalar)
        }
        flush()
        // Lower-casing and accent stripping can neither add whitespace nor punctuation in the
        // cases that matter, so they run per word; a word emptied by stripping is dropped.
        return words.flatMap { word -> [String] in
            let clean = normalized(word)
            // Stripping can expose punctuation (rare); split again so it matches the reference.
            var parts: [String] = []
            var part = ""
            for scalar in clean.unicodeScalars {
                if isPunctuation(scalar) {
                    if !part.isEmpty { parts.append(part); part = "" }
                    parts.append(String(scalar))
                } else { part.unicodeScalars.append(scalar) }
            }
            if !part.isEmpty { parts.append(part) }
            return parts
        }
    }

    private func normalized(_ word: String) -> String {
        let lower = word.lowercased().decomposedStringWithCanonicalMapping
        var kept = String.UnicodeScalarView()
        for scalar in lower.unicodeScalars where scalar.properties.generalCategory != .nonspacingMark { kept.append(scalar) }
        return String(kept)
    }

    /// Greedy longest-match-first pieces of one word.
    func pieces(of word: String) -> [Int] {
        let characters = Array(word)
        guard characters.count <= Self.longestWordCharacters else { return [unknownID] }
        var result: [Int] = []
        var start = 0
        while start < characters.count {
            var end = characters.count
            var found: Int?
            while start < end {
                let piece = (start > 0 ? "##" : "") + String(characters[start..<end])
                if let id = ids[piece] { found = id; break }
                end -= 1
            }
            guard let found else { return [unknownID] }
            result.append(found)
            start = end
        }
        return result
    }

    private func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" { return true }
        return scalar.properties.generalCategory == .spaceSeparator
    }

    private func isControl(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "\t" || scalar == "\n" || scalar == "\r" { return false }
        switch scalar.properties.generalCategory {
        case .control, .format: return true
        default: return false
        }
    }

    /// ASCII symbols count as punctuation (BERT's rule), as does every Unicode P* character.
    private func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if (33...47).contains(v) || (58...64).contains(v) || (91...96).contains(v) || (123...126).contains(v) { return true }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation: return true
        default: return false
        }
    }

    private func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x20000...0x2A6DF).contains(v)
            || (0x2A700...0x2B73F).contains(v) || (0x2B740...0x2B81F).contains(v) || (0x2B820...0x2CEAF).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0x2F800...0x2FA1F).contains(v)
    }
}
