/// Words of a grammar checked against the recogniser's pronunciation dictionary. pocketsphinx
/// rejects a whole JSGF grammar when one word lacks a pronunciation, so each word is looked up
/// first. A missing word is given one from the words it is made of (`PronunciationGuess`:
/// plurals, British spellings, "un-", compounds) or from `supplementary`; what is still missing
/// is removed from the grammar and reported (`missingWords`).
public struct PronunciationCheck: Sendable, Equatable {
    /// Words given a pronunciation here, with it ("remotes": "R IH M OW T S").
    public let addedWords: [String: String]
    /// Words with no pronunciation at all: the phrasings using them cannot be recognised.
    public let missingWords: [String]
    /// Grammar rules left with nothing to say once those phrasings were removed.
    public let emptiedRules: [String]
    /// The grammar that can be recognised.
    public let usableGrammar: RecognitionGrammar

    /// Pronunciations (CMU phone set, without stress) for words of the command language that
    /// cmudict-en-us lacks and that cannot be built from its entries.
    public static let supplementary: [String: String] = [
        "haptics": "HH AE P T IH K S",
        "haptic": "HH AE P T IH K",
        "shush": "SH AH SH",
        "aeroplane": "EH R AH P L EY N",
        "telly": "T EH L IY",
        "lorry": "L AO R IY",
    ]

    static func run(_ grammar: RecognitionGrammar, on decoder: PocketSphinxDecoder) -> PronunciationCheck {
        var added: [String: String] = [:]
        var missing: [String] = []
        let guess = PronunciationGuess(lookup: { decoder.pronunciation(of: $0) ?? supplementary[$0] })
        for word in grammar.allWords.sorted() where decoder.pronunciation(of: word) == nil {
            if let phones = guess.phones(for: word), decoder.addWord(word, phones: phones) {
                added[word] = phones
            } else {
                missing.append(word)
            }
        }
        let (usable, emptied) = grammar.removing(words: Set(missing))
        return PronunciationCheck(addedWords: added, missingWords: missing, emptiedRules: emptied, usableGrammar: usable)
    }
}

/// A pronunciation for a word the dictionary lacks, built from words it has: "remotes" from
/// "remote" (+S after a voiceless sound, +Z after a voiced one, +IH Z after a sibilant),
/// "puppys" from "puppy", "summarise" from "summarize", "unmute" from "mute", "hairdryer"
/// from "hair" + "dryer".
struct PronunciationGuess {
    let lookup: (String) -> String?

    func phones(for word: String, depth: Int = 0) -> String? {
        if let known = lookup(word) { return known }
        guard depth < 2, word.count > 3 else { return nil }
        for variant in Self.spellingVariants(of: word) {
            if let phones = phones(for: variant, depth: depth + 1) { return phones }
        }
        if word.hasSuffix("s") {
            for base in [String(word.dropLast()), String(word.dropLast(2)), String(word.dropLast(2)) + "y", String(word.dropLast(3)) + "y"] {
                if base.count > 1, let phones = phones(for: base, depth: depth + 1) { return phones + " " + Self.pluralEnding(after: phones) }
            }
        }
        if word.hasPrefix("un"), let phones = phones(for: String(word.dropFirst(2)), depth: depth + 1) { return "AH N " + phones }
        let letters = Array(word)
        for split in stride(from: letters.count - 3, through: 3, by: -1) {
            if let first = lookup(String(letters[..<split])), let second = lookup(String(letters[split...])) {
                return first + " " + second
            }
        }
        return nil
    }

    /// British to American spellings the CMU dictionary uses.
    static func spellingVariants(of word: String) -> [String] {
        let endings = [("ise", "ize"), ("ised", "ized"), ("ises", "izes"), ("ising", "izing"), ("isation", "ization"),
                       ("our", "or"), ("yse", "yze"), ("tre", "ter")]
        return endings.compactMap { british, american in
            word.hasSuffix(british) ? String(word.dropLast(british.count)) + american : nil
        }
    }

    static func pluralEnding(after phones: String) -> String {
        let last = phones.split(separator: " ").last.map(String.init) ?? ""
        if ["S", "Z", "SH", "ZH", "CH", "JH"].contains(last) { return "IH Z" }
        if ["P", "T", "K", "F", "TH"].contains(last) { return "S" }
        return "Z"
    }
}
