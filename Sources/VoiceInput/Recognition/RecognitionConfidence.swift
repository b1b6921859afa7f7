/// How sure the recogniser is of a hypothesis, 0…1, and the bar below which the user is asked
/// to repeat. A grammar always yields *some* sentence, even for a cough or a passing bus, so the
/// decoder's own lattice posterior (near 1 when few sentences compete) is combined with the
/// acoustic fit per frame, which drops when the audio is not speech the grammar describes.
public struct RecognitionConfidence: Sendable, Equatable {
    /// Acoustic score per frame (natural log) at which the fit counts as perfect, and at which it counts as none.
    public var goodScorePerFrame: Double
    public var badScorePerFrame: Double
    /// Below this the user hears "Please repeat."
    public var acceptance: Double

    public init(goodScorePerFrame: Double = -6, badScorePerFrame: Double = -14, acceptance: Double = 0.4) {
        self.goodScorePerFrame = goodScorePerFrame
        self.badScorePerFrame = badScorePerFrame
        self.acceptance = acceptance
    }

    public func score(_ hypothesis: DecoderHypothesis) -> Double {
        let span = goodScorePerFrame - badScorePerFrame
        let fit = span > 0 ? (hypothesis.acousticScorePerFrame - badScorePerFrame) / span : 1
        return min(1, max(0, fit)) * hypothesis.posterior
    }

    public func accepts(_ utterance: RecognizedUtterance) -> Bool { utterance.confidence >= acceptance }
}
