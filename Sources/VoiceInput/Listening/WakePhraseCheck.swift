import AssistCore
import Foundation

/// The wake phrase's second check, on the words of an unbiased transcript: which reading of the
/// audio to weigh (the transcript itself when it holds the phrase; else the transcript with the
/// phrase in place of the run of words nearest to it in spelling, when near enough), and how much
/// less likely than the transcript the model may find that reading and still be taken to have
/// heard the phrase. Spelling only picks what to ask the model; the audio decides.
public struct WakePhraseCheck: Sendable {
    /// The phrase, in spoken words (`NeuralUtteranceRecognizer.spokenText`).
    public let phrase: String
    /// At most this share of the phrase's letters may differ in a run of words weighed as it.
    public var nearMissShare: Double
    /// How much less likely (nats, summed over the reading's tokens) the phrase's reading may be
    /// than the model's own transcript.
    public var maximumGap: Double

    public init(phrase: String = WakePhraseSpotter.defaultPhrase, nearMissShare: Double = 0.4, maximumGap: Double = 8) {
        self.phrase = NeuralUtteranceRecognizer.spokenText(phrase)
        self.nearMissShare = nearMissShare
        self.maximumGap = maximumGap
    }

    private var letters: String { phrase.replacingOccurrences(of: " ", with: "") }

    /// Words that make what follows them a thing talked about ("an artistic vision", "my
    /// vision"), where a name called out stands alone: the phrase is not read in after them,
    /// nor in place of a run of words that starts with one.
    static let determiners: Set<String> = ["a", "an", "the", "this", "that", "these", "those", "my", "your", "his", "her", "its",
                                           "our", "their", "of", "some", "no", "any", "every", "each", "whose"]
    /// Determiners that are also how Moonshine writes a filler said before the phrase ("er,
    /// assistive vision" written "her assistive vision"): as an utterance's first word, right
    /// before the phrase, the filler, which does not keep it from being read in. Found on the
    /// development renderings (bench/wake/dev-wake-2.txt: festival's "er, assistive vision now"
    /// was heard word for word after "her" and not woken). Not "a" (for "uh"): "a positive
    /// vision" would then be weighed as the phrase.
    static let fillerSpellings: Set<String> = ["her"]

    /// Whether the word at `index` keeps the phrase from being read in right after it.
    static func blocksPhrase(after words: [String], at index: Int) -> Bool {
        guard determiners.contains(words[index]) else { return false }
        return !(index == 0 && fillerSpellings.contains(words[index]))
    }

    /// Whether the words hold the phrase: as words, or run together ("assistivevision").
    public func contains(_ transcript: String) -> Bool {
        let words = NeuralUtteranceRecognizer.spokenText(transcript)
        return (" " + words + " ").contains(" " + phrase + " ") || words.replacingOccurrences(of: " ", with: "").contains(letters)
    }

    /// The reading to weigh against the transcript `words`: the words themselves when they hold
    /// the phrase; the words with the phrase in place of the run of one to four words nearest it
    /// in spelling, when at most `nearMissShare` of its letters differ; nil otherwise (nothing to check).
    public func reading(of transcript: String) -> String? {
        let words = NeuralUtteranceRecognizer.spokenText(transcript).split(separator: " ").map(String.init)
        guard !words.isEmpty else { return nil }
        if contains(transcript) {
            let spoken = words.joined(separator: " ")
            guard let found = (" " + spoken + " ").range(of: " " + phrase + " ") else { return spoken }  // run together
            let before = (" " + spoken + " ")[..<found.lowerBound].split(separator: " ").map(String.init)
            return before.isEmpty || !Self.blocksPhrase(after: before, at: before.count - 1) ? spoken : nil
        }
        let allowed = Int((Double(letters.count) * nearMissShare).rounded(.down))
        var nearest: (distance: Int, range: Range<Int>)?
        for start in words.indices {
            for end in (start + 1)...min(start + 4, words.count) {
                let run = words[start..<end].joined()
                // Cheap bound first: the difference in length is at least the distance.
                guard abs(run.count - letters.count) <= allowed, !Self.determiners.contains(words[start]),
                      start == 0 || !Self.blocksPhrase(after: words, at: start - 1) else { continue }
                let distance = EditDistance.between(run, letters)
                if distance <= allowed, distance < nearest?.distance ?? .max { nearest = (distance, start..<end) }
            }
        }
        guard let nearest else { return nil }
        return (words[..<nearest.range.lowerBound] + [phrase] + words[nearest.range.upperBound...]).joined(separator: " ")
    }

    /// Whether the phrase's reading, weighed by the model, is near enough to what it heard.
    public func accepts(_ reading: AlternativeReading) -> Bool {
        contains(reading.text) && reading.logProbabilityGap >= -maximumGap
    }
}
