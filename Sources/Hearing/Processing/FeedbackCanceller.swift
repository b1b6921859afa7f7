import Foundation

/// Adaptive feedback cancellation (openMHA `adaptive_feedback_canceller`; Spriet, Moonen &
/// Wouters 2005 on the bias problem): an FIR model of the acoustic path from the earphone back
/// to the microphone, fed with what the ear's chain actually sent out, predicts the feedback
/// part of each microphone sample; the chain hears the microphone minus that prediction.
///
/// The model is adapted by normalised LMS. What keeps it from modelling the wanted sound instead
/// of the feedback is the chain's own delay (5.3 ms from microphone to earphone): sound
/// arriving now is uncorrelated with what was played from it unless the sound itself repeats
/// over that time. A fixed pre-emphasis (1 − 0.9 z⁻¹) on error and reference, the usual cheap
/// whitening against speech's low-frequency bias, was measured and left out: it slowed
/// convergence at a 3 kHz feedback peak twelvefold (2 dB instead of 34 dB of cancellation after
/// 4 s of noise). A tone held for seconds is partly cancelled (entrainment, the known limit of
/// every AFC without a frequency shift or prediction-error filter), which is why this is a setting.
///
/// Sound played during hop j can reach the microphone no sooner than hop j + 1, so the model
/// covers lags from one hop (`firstLagFrames`) to `firstLagFrames + tapCount − 1`: 64…191 frames
/// at 48 kHz = 1.3–4 ms, the round trip of an audio server at 64-frame periods plus a few
/// centimetres of air. The step size gives a time constant of tapCount/μ ≈ 13,000 frames
/// (0.27 s): fast enough to follow a hand coming near the ear.
final class FeedbackCanceller {
    static let tapCount = 128
    static let stepSize: Float = 0.01
    /// Keeps the normalisation away from zero in silence (power of a −70 dBFS signal over the taps).
    static let regularisation: Float = 1e-7 * Float(tapCount)

    private(set) var firstLagFrames = 0
    private var hopSize = 0
    /// Model taps; `weights[k]` multiplies the output `firstLagFrames + k` frames back.
    private var weights = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    /// What the earphone played, newest last; kept twice as long as needed and slid back once
    /// full, so reads are contiguous.
    private var played = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var playedCount = 0
    /// The corrected microphone hop the filterbank reads.
    private(set) var corrected = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)

    private var historyLength: Int { firstLagFrames + Self.tapCount + hopSize }

    func prepare(hopSize: Int) {
        release()
        self.hopSize = hopSize
        firstLagFrames = hopSize
        weights = .allocate(capacity: Self.tapCount); weights.initialize(repeating: 0)
        played = .allocate(capacity: 2 * historyLength); played.initialize(repeating: 0)
        corrected = .allocate(capacity: hopSize); corrected.initialize(repeating: 0)
        playedCount = historyLength
    }

    func release() {
        for buffer in [weights, played, corrected] { buffer.deallocate() }
        weights = .init(start: nil, count: 0); played = .init(start: nil, count: 0)
        corrected = .init(start: nil, count: 0)
    }

    deinit { release() }

    /// Forgets the model (a new prescription, or after a dropout, when the path is unknown again).
    func reset() {
        weights.update(repeating: 0)
        played.update(repeating: 0)
        playedCount = historyLength
    }

    /// The model's taps, for tests and the debug view.
    var modelTaps: [Float] { Array(weights) }

    /// Writes `hopSize` guarded microphone samples minus the predicted feedback into `corrected`,
    /// adapting the model when `adapting`.
    @inline(__always)
    func cancel(_ microphone: UnsafePointer<Float>, adapting: Bool) {
        let taps = Self.tapCount, lag = firstLagFrames
        let w = weights.baseAddress!, u0 = played.baseAddress!
        // This hop's sample i is frame `playedCount + i` of the played timeline; the frame `lag + k`
        // before it is at `playedCount + i − lag − k`, which is already played for every lag ≥ one hop.
        // The normalisation is the reference power over the taps, taken once per hop over the
        // span all of this hop's samples read (scaled to the tap count).
        var power: Float = 0
        for p in (playedCount - lag - taps + 1)...(playedCount + hopSize - 1 - lag) { power += u0[p] * u0[p] }
        power *= Float(taps) / Float(taps + hopSize - 1)
        let step = Self.stepSize / (power + Self.regularisation)
        for i in 0..<hopSize {
            let start = playedCount + i - lag - taps + 1 // u[taps − 1 − k] is the output lag + k back
            let u = u0 + start
            var prediction: Float = 0
            for k in 0..<taps { prediction += w[k] * u[taps - 1 - k] }
            let error = microphone[i] - prediction
            guard error.isFinite else {
                // A model gone wrong must not turn the microphone into noise: start again.
                weights.update(repeating: 0)
                corrected[i] = microphone[i]
                continue
            }
            corrected[i] = min(max(error, -InputGuard.absurdAmplitude), InputGuard.absurdAmplitude)
            guard adapting else { continue }
            let scaled = step * error
            for k in 0..<taps { w[k] += scaled * u[taps - 1 - k] }
        }
    }

    /// Records the `hopSize` samples the earphone is about to play (after the limiter).
    @inline(__always)
    func played(_ output: UnsafePointer<Float>) {
        if playedCount + hopSize > played.count {
            let keep = historyLength
            played.baseAddress!.update(from: played.baseAddress! + playedCount - keep, count: keep)
            playedCount = keep
        }
        for i in 0..<hopSize {
            played[playedCount] = output[i].isFinite ? output[i] : 0
            playedCount += 1
        }
    }
}
