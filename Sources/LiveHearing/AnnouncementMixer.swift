import Media
import Speech

/// Says announcements (a program switch, an expiring prescription) in the hearing aid's own
/// output, as hearing aids do: the wearer hears them in the ear, with no second device, and a
/// program switch is never only printed.
///
/// Two threads, and the audio thread never waits for the other: `feed` (the live loop's thread)
/// renders the queue's speech, already at the chain's rate, into a lock-free ring up to
/// `leadSeconds` ahead; `mix` (the audio thread, after the hearing chain) takes the next block
/// from the ring — silence for whatever is not there yet — lowers the aided sound by 10 dB while
/// speech plays (ducking, ramped over 10 ms so it does not click), and keeps the sum within the
/// chain's ceiling: the speech peaks at half the ceiling and the ducked sound at 0.32 of it, and
/// a final clamp holds the ceiling whatever the voice does. The queue's lock (which a thread
/// planning an announcement holds, and which the scheduler may suspend while it holds it) is
/// taken only by `feed`. Neither side allocates after `init`.
public final class AnnouncementMixer: @unchecked Sendable {
    // `rendered` belongs to the feeding thread; `scratch` and the ducking gain to the audio
    // thread; the ring is their only meeting point. Other threads only reach the queue, which is
    // thread-safe.
    public let queue: UtteranceQueue
    private let speech: SampleRing
    private let rendered: UnsafeMutableBufferPointer<Float>
    private let scratch: UnsafeMutableBufferPointer<Float>
    private let maximumFrames: Int
    private let leadFrames: Int
    private var duckGain: Float = 1
    private let duckStep: Float

    /// 10 dB: the announcement stands clearly above the aided sound without cutting it off.
    public static let duckedGain: Float = 0.316
    /// The speech's peak as a fraction of the ceiling (−6 dB).
    public static let speechPeakFraction: Float = 0.5
    /// How far ahead of the ear speech is rendered: the feeding thread (woken every 50 ms) may be
    /// this late on a busy machine before a word has a gap. An announcement starts when it is
    /// next fed, whatever the lead.
    public static let leadSeconds = 0.25
    /// Frames the queue renders at a time.
    static let feedFrames = 512

    /// `maximumFrames`: the largest block the callback will pass.
    public init(queue: UtteranceQueue, maximumFrames: Int) {
        self.queue = queue
        self.maximumFrames = maximumFrames
        leadFrames = Int(Self.leadSeconds * queue.sampleRateHz)
        speech = SampleRing(minimumCapacity: 2 * (leadFrames + Self.feedFrames))
        rendered = .allocate(capacity: 2 * Self.feedFrames)
        rendered.initialize(repeating: 0)
        scratch = .allocate(capacity: 2 * maximumFrames)
        scratch.initialize(repeating: 0)
        duckStep = Float(1 / (0.01 * queue.sampleRateHz))
    }

    deinit {
        rendered.deallocate()
        scratch.deallocate()
    }

    /// Queues a sentence to be said in the ear.
    public func say(_ sentence: String, key: String) {
        queue.enqueue(Utterance(sentence, priority: .answer, contentKey: key))
    }

    /// Feeding thread (one thread, never the audio thread: it takes the queue's lock): renders
    /// what the queue has to say into the ring until it holds `leadSeconds`. Call it often (the
    /// live loop does, every 50 ms); it does nothing while there is nothing to say.
    public func feed() {
        while speech.count < 2 * leadFrames, !queue.isIdle {
            queue.render(into: rendered, frameCount: Self.feedFrames)
            speech.write(UnsafeBufferPointer(rendered))
        }
    }

    /// Audio thread: mixes the next `frames` frames of speech into `output` (interleaved stereo,
    /// already within `ceiling`).
    public func mix(into output: UnsafeMutablePointer<Float>, frames: Int, ceiling: Float) {
        let n = min(frames, maximumFrames)
        let got = speech.read(into: scratch.baseAddress!, count: 2 * n)
        for i in got..<(2 * n) { scratch[i] = 0 }
        // Ducked for as long as the sentence plays, its pauses between words included: ducking
        // only the blocks with sound in them let the aided sound swell back in every gap between
        // words (and how long those gaps are varies from one synthesis to the next).
        let speaking = got > 0
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
