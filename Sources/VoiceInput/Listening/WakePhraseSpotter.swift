import Foundation

/// Listens, with no camera and no command language, for one wake phrase ("Assistive Vision")
/// in continuous audio: the speech detector is the cheap first stage (nothing else runs while
/// nobody speaks), and each utterance it finds is transcribed by Moonshine with only the wake
/// phrase favoured (`PhraseBias`). The phrase wakes it wherever it falls in the utterance, said
/// alone or after other speech; anything else said is ignored.
public final class WakePhraseSpotter {
    public static let defaultPhrase = "assistive vision"

    public let phrase: String
    private let utterances: NeuralUtteranceRecognizer

    public init(phrase: String = defaultPhrase, files: SpeechModelFiles) throws {
        self.phrase = PhraseBias.normalized(phrase)
        let detector = try SileroSpeechDetector(modelAt: files.voiceActivity)
        let transcriber = try MoonshineTranscriber(files: files, bias: PhraseBias(phrases: [phrase]))
        utterances = NeuralUtteranceRecognizer(detector: detector, transcriber: transcriber)
    }

    /// Whether a transcript holds the phrase: as words, or run together ("assistivevision").
    public func contains(_ transcript: String) -> Bool {
        let words = PhraseBias.normalized(transcript)
        return (" " + words + " ").contains(" " + phrase + " ")
            || words.replacingOccurrences(of: " ", with: "").contains(phrase.replacingOccurrences(of: " ", with: ""))
    }

    /// Told every utterance transcribed, woken or not (the wake benchmark's record of what was heard).
    public var onUtterance: ((RecognizedUtterance) -> Void)?

    /// Reads `source` until it ends or `onWake` returns false; `onWake` gets the audio time (in
    /// seconds from the start) at which the phrase was heard (the end of its utterance).
    public func listen(to source: SpeechAudioSource, onWake: (Double) -> Bool) throws {
        try listen(to: source, heard: { seconds, _ in onWake(seconds) })
    }

    /// As `listen(to:onWake:)`, `heard` also given the transcript that woke it.
    public func listen(to source: SpeechAudioSource, heard: (Double, String) -> Bool) throws {
        try utterances.reset()
        // The recogniser's clock runs on across sources; times are told from this source's start.
        let origin = utterances.audioSeconds
        while let chunk = try source.nextChunk() {
            if let utterance = try utterances.push(chunk) {
                onUtterance?(utterance)
                if contains(utterance.text) {
                    guard heard(utterance.endDetectedSeconds - origin, utterance.text) else { return }
                    try utterances.reset()
                }
            }
        }
        // The phrase said at the very end of a recording is only closed here.
        if let last = try utterances.finish() {
            onUtterance?(last)
            if contains(last.text) { _ = heard(last.endDetectedSeconds - origin, last.text) }
        }
    }
}
