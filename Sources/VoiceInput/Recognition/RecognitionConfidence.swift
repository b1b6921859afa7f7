/// What the listener does with an utterance.
public enum RecognitionVerdict: Sendable, Equatable {
    /// Act on it.
    case accepted
    /// Speech that fits no command well: the user hears "Please repeat."
    case unclear
    /// The background was too loud for recognition to be trusted, whatever was recognised:
    /// the user hears why, and what to do instead.
    case tooNoisy
    /// Background noise alone (it started, or got louder, and the detector opened on it): nobody
    /// spoke, so nothing is said and nothing is done. Only a level without syllables is this
    /// over a quiet background; below `minimumSignalToNoiseDecibels`, fewer than `minimumSyllablesInNoise`.
    case noSpeech
}

/// How sure the recogniser is of a hypothesis, 0…1, and the bars below which the user is asked
/// to repeat. A grammar always yields *some* sentence, even for a cough or a passing bus, so the
/// decoder's own lattice posterior (near 1 when few sentences compete) is combined with the
/// acoustic fit per frame, which drops when the audio is not speech the grammar describes.
///
/// Neither catches noise: in white noise at 10 dB SNR the grammar search returns the wrong
/// command with posterior 1 and a fit as good as clean speech's. The signal-to-noise ratio does
/// (measured with `assist bench voice --snr`, see BENCHMARKS.md): below
/// `minimumSignalToNoiseDecibels` the utterance is refused as too noisy.
public struct RecognitionConfidence: Sendable, Equatable {
    /// Acoustic score per frame (natural log) at which the fit counts as perfect, and at which it counts as none.
    public var goodScorePerFrame: Double
    public var badScorePerFrame: Double
    /// Below this the user hears "Please repeat."
    public var acceptance: Double
    /// Speech less than this far above the background (dB) is not acted on.
    public var minimumSignalToNoiseDecibels: Double
    /// Below `minimumSignalToNoiseDecibels`, an utterance with fewer syllables than this (see
    /// `SpeechLevelMeter.syllablesInUtterance`) is noise alone rather than speech drowned by it.
    /// Two, because a single hump is also what a passing burst of noise makes.
    public var minimumSyllablesInNoise: Int

    public init(goodScorePerFrame: Double = -6, badScorePerFrame: Double = -14, acceptance: Double = 0.4,
                minimumSignalToNoiseDecibels: Double = 20, minimumSyllablesInNoise: Int = 2) {
        self.goodScorePerFrame = goodScorePerFrame
        self.badScorePerFrame = badScorePerFrame
        self.acceptance = acceptance
        self.minimumSignalToNoiseDecibels = minimumSignalToNoiseDecibels
        self.minimumSyllablesInNoise = minimumSyllablesInNoise
    }

    /// For open speech (the n-gram path): the lattice posterior alone (no acoustic-fit factor:
    /// pocketsphinx's n-gram search reports a best-path score near 0 per frame whatever was
    /// said, measured −0.004…−0.006 for right and wrong transcripts alike). Many sentences
    /// compete in an n-gram lattice, so posteriors are lower than a grammar's; the bar was
    /// chosen with `assist bench voice --decode ngram` (BENCHMARKS.md), and the meaning's own
    /// similarity and margin decide the rest.
    public static let openSpeech = RecognitionConfidence(goodScorePerFrame: 0, badScorePerFrame: 0, acceptance: 0.05)

    /// For the neural recogniser: `acceptance` is the bar on Moonshine's own confidence (the
    /// geometric mean of its chosen tokens' probabilities), and `minimumSignalToNoiseDecibels`
    /// only separates "too noisy" from "please repeat" among utterances it could not make out:
    /// a transcript it is sure of is taken whatever the background (Moonshine was trained on
    /// noisy speech; measured in BENCHMARKS.md, issue 35).
    public static let neural = RecognitionConfidence(goodScorePerFrame: 0, badScorePerFrame: 0, acceptance: 0.5,
                                                     minimumSignalToNoiseDecibels: 15, minimumSyllablesInNoise: 1)

    /// The neural recogniser's verdict: the speech detector already decided that someone spoke
    /// (`syllables` holds its speech windows), so "too noisy" is said only when that speech
    /// could not be made out over a loud background, never instead of trying.
    public func neuralVerdict(_ utterance: RecognizedUtterance) -> RecognitionVerdict {
        if (utterance.syllables ?? 1) < minimumSyllablesInNoise { return .noSpeech }
        if !utterance.text.isEmpty, utterance.confidence >= acceptance { return .accepted }
        return utterance.signalToNoiseDecibels < minimumSignalToNoiseDecibels ? .tooNoisy : .unclear
    }

    public func score(_ hypothesis: DecoderHypothesis) -> Double {
        let span = goodScorePerFrame - badScorePerFrame
        let fit = span > 0 ? (hypothesis.acousticScorePerFrame - badScorePerFrame) / span : 1
        return min(1, max(0, fit)) * hypothesis.posterior
    }

    public func verdict(_ utterance: RecognizedUtterance) -> RecognitionVerdict {
        // Noise first: a command recognised in noise is untrustworthy however sure the decoder is.
        // But "too noisy" only once someone spoke: the grammar search finds a command in noise
        // alone too, so speech is told from noise by the syllables in its level, not by the text.
        // Over a quiet background, a level that rose and never fell (a fan, a tap turned on) has
        // no syllable at all, while the shortest word has one.
        let syllables = utterance.syllables ?? .max
        if utterance.signalToNoiseDecibels < minimumSignalToNoiseDecibels {
            return syllables >= minimumSyllablesInNoise ? .tooNoisy : .noSpeech
        }
        if syllables < 1 { return .noSpeech }
        return utterance.confidence >= acceptance ? .accepted : .unclear
    }

    public func accepts(_ utterance: RecognizedUtterance) -> Bool { verdict(utterance) == .accepted }
}
