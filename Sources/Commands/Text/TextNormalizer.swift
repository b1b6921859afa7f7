import Foundation

/// Turns typed or recognised text into the lower-case words the matcher compares: contractions
/// expanded ("what's" → "what is"), a possessive kept ("girl's"), "%" spelled as a word, punctuation dropped, numbers such as
/// "0.5" kept whole, and politeness ("please", "could you") removed.
struct TextNormalizer: Sendable {
    let contractions: [String: String]
    let percentWord: String
    /// Removed only at the start: "can you find a chair" but not "what can you detect".
    let leadingFillers: [[String]]
    /// Removed wherever they stand.
    let anywhereFillers: Set<String>
    /// The assistant's names, removed at the start even when nothing is left (`LanguageFile.Fillers.address`).
    var address: [[String]] = []

    /// `removingAddress`: false keeps a leading name (to tell whether there was one).
    func words(_ text: String, removingAddress: Bool = true) -> [String] {
        let cleaned = text.lowercased()
            .replacingOccurrences(of: "\u{2019}", with: "'")
            .replacingOccurrences(of: "%", with: " \(percentWord) ")
        var tokens = splitKeepingNumbers(cleaned)
        tokens = tokens.flatMap { token -> [String] in
            if let expansion = contractions[token] { return expansion.split(separator: " ").map(String.init) }
            // A possessive keeps its mark: "the girl's umbrella" is the umbrella, not girls and an umbrella.
            if CategoryVocabulary.isPossessive(token), !token.dropLast(2).contains("'") { return [token] }
            return [token.replacingOccurrences(of: "'", with: "")]
        }.filter { !$0.isEmpty && !anywhereFillers.contains($0) }
        var removed = true
        while removed {
            removed = false
            for filler in leadingFillers where tokens.count > filler.count && Array(tokens.prefix(filler.count)) == filler {
                tokens.removeFirst(filler.count)
                removed = true
            }
            for name in address where removingAddress && tokens.count >= name.count && Array(tokens.prefix(name.count)) == name {
                tokens.removeFirst(name.count)
                removed = true
            }
        }
        return tokens
    }

    /// Splits on anything but letters, digits and apostrophes; a dot between digits stays ("0.5").
    private func splitKeepingNumbers(_ text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            if character.isLetter || character.isNumber || character == "'" {
                current.append(character)
            } else if character == ".", let last = current.last, last.isNumber,
                      index + 1 < characters.count, characters[index + 1].isNumber {
                current.append(character)
            } else if !current.isEmpty {
                tokens.append(current)
                current = ""
            }
        }
        if !current.isEmpty { tokens.append(current) }
        // Quotes around a word go; the mark of a plural possessive ("the kids' jackets") stays.
        return tokens.map { token in
            let trimmed = token.trimmingCharacters(in: CharacterSet(charactersIn: "'"))
            return token.hasSuffix("s'") && !token.hasPrefix("'") && trimmed.count > 1 ? trimmed + "'" : trimmed
        }
    }
}
