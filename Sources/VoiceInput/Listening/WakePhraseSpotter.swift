import Foundation

/// Listens, with no camera and no command grammar, for one wake phrase ("Assistive Vision") in
/// continuous audio: pocketsphinx's keyphrase search, which reports the phrase as soon as it is
/// heard and ignores everything else said.
public final class WakePhraseSpotter {
    public static let defaultPhrase = "assistive vision"
    /// Words of the phrase missing from the en-us dictionary, with their phones.
    static let pronunciations = ["assistive": "AH S IH S T IH V"]

    public let phrase: String
    private let decoder: PocketSphinxDecoder

    /// `thresholdExponent`: pocketsphinx's -kws_threshold as a power of ten. Lower hears the phrase
    /// more readily, and other speech as the phrase more often; 1e-20 is its documented range
    /// for a two-word phrase (1e-50 … 1e-5).
    public init(phrase: String = defaultPhrase, thresholdExponent: Int = -20, logFile: URL? = nil) throws {
        self.phrase = phrase.lowercased()
        var tuning = DecoderTuning()
        tuning.extraArguments += ["-kws_threshold", "1e\(thresholdExponent)"]
        decoder = try PocketSphinxDecoder(search: nil, tuning: tuning, logFile: logFile)
        for word in self.phrase.split(separator: " ").map(String.init) where decoder.pronunciation(of: word) == nil {
            guard let phones = Self.pronunciations[word], decoder.addWord(word, phones: phones) else {
                throw PocketSphinxError.grammarRejected(reason: "the wake phrase word \"\(word)\" has no pronunciation")
            }
        }
        try decoder.use(.keyphrase(self.phrase))
    }

    /// Reads `source` until it ends or `onWake` returns false; `onWake` gets the audio time (in
    /// seconds from the start) at which the phrase was heard.
    public func listen(to source: SpeechAudioSource, onWake: (Double) -> Bool) throws {
        var samplesHeard = 0
        try decoder.startUtterance()
        while let chunk = try source.nextChunk() {
            try chunk.withUnsafeBufferPointer { try decoder.process($0) }
            samplesHeard += chunk.count
            if let text = decoder.partialText, text.contains(phrase) {
                _ = try decoder.endUtterance()
                guard onWake(Double(samplesHeard) / RecognizerAudio.sampleRateHz) else { return }
                try decoder.startUtterance()
            }
        }
        // The phrase said at the very end of a recording is only final here.
        if let last = try decoder.endUtterance(), last.text.contains(phrase) {
            _ = onWake(Double(samplesHeard) / RecognizerAudio.sampleRateHz)
        }
    }
}
