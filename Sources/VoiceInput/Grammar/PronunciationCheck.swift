/// Words of a grammar checked against the recogniser's pronunciation dictionary. pocketsphinx
/// rejects a whole JSGF grammar when one word lacks a pronunciation, so each word is looked up
/// first: product words the CMU dictionary lacks get a pronunciation from `supplementary`, and
/// what is still missing is removed from the grammar and reported (`missingWords`).
public struct PronunciationCheck: Sendable, Equatable {
    /// Words given a pronunciation from the supplementary list.
    public let addedWords: [String]
    /// Words with no pronunciation at all: the sentences and slot values using them cannot be recognised.
    public let missingWords: [String]
    /// The grammar that can be recognised.
    public let usableGrammar: RecognitionGrammar

    /// Pronunciations (CMU phone set, ARPAbet without stress) for words of the command language
    /// that cmudict-en-us lacks, written from the dictionary's entries for their parts
    /// ("haptic" is missing too; "hap" + "tics" as in "tactics").
    public static let supplementary: [String: String] = [
        "haptics": "HH AE P T IH K S",
        "haptic": "HH AE P T IH K",
        "prioritise": "P R AY AO R AH T AY Z",
        "prioritize": "P R AY AO R AH T AY Z",
        "earcons": "IH R K AA N Z",
    ]

    static func run(_ grammar: RecognitionGrammar, on decoder: PocketSphinxDecoder) -> PronunciationCheck {
        var added: [String] = []
        var missing: [String] = []
        for word in grammar.allWords.sorted() where decoder.pronunciation(of: word) == nil {
            if let phones = supplementary[word], decoder.addWord(word, phones: phones) {
                added.append(word)
            } else {
                missing.append(word)
            }
        }
        return PronunciationCheck(addedWords: added, missingWords: missing,
                                  usableGrammar: grammar.removing(words: Set(missing)))
    }
}
