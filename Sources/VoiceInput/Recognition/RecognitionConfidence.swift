/// What the listener does with an utterance.
public enum RecognitionVerdict: Sendable, Equatable {
    /// Act on it.
    case accepted
    /// Speech that could not be made out (another language, mumbling, a cough): the user hears "Please repeat."
    case unclear
    /// Speech that could not be made out over a loud background: the user hears why, and what
    /// to do instead.
    case tooNoisy
    /// Too little speech for an utterance (a click, a burst of noise): nobody spoke, so nothing
    /// is said and nothing is done.
    case noSpeech
}

/// How sure the recogniser must be of its words before they are acted on, and the bars that
/// tell "too noisy" from "please repeat" among those it could not make out.
public struct RecognitionConfidence: Sendable, Equatable {
    /// The bar on Moonshine's own confidence (the geometric mean of its chosen tokens'
    /// probabilities); below it the user hears "Please repeat."
    public var acceptance: Double
    /// Speech less than this far above the background (dB) that could not be made out is "too
    /// noisy" rather than "please repeat". A transcript the recogniser is sure of is taken
    /// whatever the background (Moonshine was trained on noisy speech; measured in
    /// BENCHMARKS.md, issue 35).
    public var minimumSignalToNoiseDecibels: Double
    /// An utterance with fewer windows of speech than this (the speech detector's) is no speech.
    public var minimumSyllablesInNoise: Int

    public init(acceptance: Double = 0.5, minimumSignalToNoiseDecibels: Double = 15, minimumSyllablesInNoise: Int = 1) {
        self.acceptance = acceptance
        self.minimumSignalToNoiseDecibels = minimumSignalToNoiseDecibels
        self.minimumSyllablesInNoise = minimumSyllablesInNoise
    }

    /// The listener's bars (the recogniser's since issue 35: Silero VAD and Moonshine).
    public static let neural = RecognitionConfidence()

    /// The verdict: the speech detector already decided that someone spoke (`syllables` holds
    /// its speech windows), so "too noisy" is said only when that speech could not be made out
    /// over a loud background, never instead of trying.
    public func neuralVerdict(_ utterance: RecognizedUtterance) -> RecognitionVerdict {
        if (utterance.syllables ?? 1) < minimumSyllablesInNoise { return .noSpeech }
        if !utterance.text.isEmpty, utterance.confidence >= acceptance { return .accepted }
        return utterance.signalToNoiseDecibels < minimumSignalToNoiseDecibels ? .tooNoisy : .unclear
    }
}
