import Speech

/// Says announcements (a program switch, an expiring prescription) in the hearing aid's own
/// output, as hearing aids do: the wearer hears them in the ear, with no second device, and a
/// program switch is never only printed.
///
/// Runs on the audio thread after the hearing chain: renders the queue's speech (already at the
/// chain's rate), lowers the aided sound by 10 dB while it speaks (ducking, ramped over 10 ms so
/// it does not click), and keeps the sum within the chain's ceiling: the speech peaks at half
/// the ceiling and the ducked sound at 0.32 of it, and a final clamp holds the ceiling whatever
/// the voice does. Allocates nothing after `init`.
public final class AnnouncementMixer: @unchecked Sendable {
    // The scratch buffer and the ducking gain belong to the audio thread; other threads only
    // reach the queue, which is thread-safe.
    public let queue: UtteranceQueue
    private let scratch: UnsafeMutableBufferPointer<Float>
    private let maximumFrames: Int
    private var duckGain: Float = 1
    private let duckStep: Float

    /// 10 dB: the announcement stands clearly above the aided sound without cutting it off.
    public static let duckedGain: Float = 0.316
    /// The speech's peak as a fraction of the ceiling (−6 dB).
    public static let speechPeakFraction: Float = 0.5

    /// `maximumFrames`: the largest block the callback will pass.
    public init(queue: UtteranceQueue, maximumFrames: Int) {
        self.queue = queue
        self.maximumFrames = maximumFrames
        scratch = .allocate(capacity: 2 * maximumFrames)
        scratch.initialize(repeating: 0)
        duckStep = Float(1 / (0.01 * queue.sampleRateHz))
    }

    deinit { scratch.deallocate() }

    /// Queues a sentence to be said in the ear.
    public func say(_ sentence: String, key: String) {
        queue.enqueue(Utterance(sentence, priority: .answer, contentKey: key))
    }

    /// Mixes the next `frames` frames of speech into `output` (interleaved stereo, already
    /// within `ceiling`).
    public func mix(into output: UnsafeMutablePointer<Float>, frames: Int, ceiling: Float) {
        let n = min(frames, maximumFrames)
        queue.render(into: scratch, frameCount: n)
        var speaking = false
        for i in 0..<(2 * n) where scratch[i] != 0 { speaking = true; break }
        let target: Float = speaking ? Self.duckedGain : 1
        let speechGain = Self.speechPeakFraction * ceiling
        for frame in 0..<n {
            duckGain += max(-duckStep, min(duckStep, target - duckGain))
            for channel in 0..<2 {
                let i = 2 * frame + channel
                let speech = min(max(scratch[i], -1), 1) * speechGain
                let sum = output[i] * duckGain + speech
                output[i] = sum.isFinite ? min(max(sum, -ceiling), ceiling) : 0
            }
        }
    }
}
