import AssistCore
import Foundation

/// Listens, with no camera and no command language, for one wake phrase ("Assistive Vision")
/// in continuous audio: the speech detector is the cheap first stage (nothing else runs while
/// nobody speaks), and each utterance it finds is transcribed by Moonshine as it is, unbiased.
/// A transcript that holds the phrase wakes it; one whose words come near it ("assisted
/// vision", "assess the vision": synthetic and accented voices, and the product's name, are
/// where the model slips) is checked against the audio: the model reads the same audio again
/// held to the phrase in place of those words, and it wakes only when the model finds that
/// reading nearly as likely as its own (`WakePhraseCheck`). The phrase wakes it wherever it falls
/// in the utterance, said alone or after other speech; anything else said is ignored.
public final class WakePhraseSpotter {
    public static let defaultPhrase = "assistive vision"

    public let phrase: String
    public let check: WakePhraseCheck
    private let utterances: NeuralUtteranceRecognizer

    public init(phrase: String = defaultPhrase, files: SpeechModelFiles, check: WakePhraseCheck? = nil) throws {
        let check = check ?? WakePhraseCheck(phrase: phrase)
        self.phrase = check.phrase
        self.check = check
        let detector = try SileroSpeechDetector(modelAt: files.voiceActivity)
        // Unbiased: the transcript is the model's own best reading, against which the phrase is weighed.
        let transcriber = try MoonshineTranscriber(files: files)
        transcriber.alternative = { check.reading(of: $0) }
        utterances = NeuralUtteranceRecognizer(detector: detector, transcriber: transcriber)
    }

    /// Whether a transcript holds the phrase: as words, or run together ("assistivevision").
    public func contains(_ transcript: String) -> Bool { check.contains(transcript) }

    /// Whether an utterance wakes it: its transcript holds the phrase, or the phrase read in
    /// place of the words near it is nearly as likely to the model (`WakePhraseCheck`).
    public func wakes(_ utterance: RecognizedUtterance) -> Bool {
        utterance.alternative.map(check.accepts) ?? false
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
                if wakes(utterance) {
                    guard heard(utterance.endDetectedSeconds - origin, utterance.text) else { return }
                    try utterances.reset()
                }
            }
        }
        // The phrase said at the very end of a recording is only closed here.
        if let last = try utterances.finish() {
            onUtterance?(last)
            if wakes(last) { _ = heard(last.endDetectedSeconds - origin, last.text) }
        }
    }
}
