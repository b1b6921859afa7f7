import AssistCore
import Foundation
@testable import Guidance
@testable import LiveGuidance
import Media
import Perception
import Speech
import Synchronization
import TestSupport

/// Frames of a small grey picture at `framesPerSecond`; the ones at `unreadable` indices throw as
/// a damaged picture would; after the last, `endError` is thrown (a stream) or nil returned (a file).
final class ScriptedFrameSource: FrameSource {
    let name = "scripted.mp4"
    let frameCount: Int
    let framesPerSecond: Double
    let unreadable: Set<Int>
    let endError: VideoInputError?
    /// What every frame shows; nil: a small grey picture.
    let picture: RGBImage?
    /// Told the index of each frame as it is handed out: an event a test can wait for.
    let onFrame: (@Sendable (Int) -> Void)?
    private var index = 0

    init(frameCount: Int, framesPerSecond: Double = 10, unreadable: Set<Int> = [], endError: VideoInputError? = nil,
         picture: RGBImage? = nil, onFrame: (@Sendable (Int) -> Void)? = nil) {
        self.frameCount = frameCount
        self.framesPerSecond = framesPerSecond
        self.unreadable = unreadable
        self.endError = endError
        self.picture = picture
        self.onFrame = onFrame
    }

    func nextFrame() throws -> Frame? {
        guard index < frameCount else {
            if let endError { throw endError }
            return nil
        }
        defer { index += 1 }
        onFrame?(index)
        if unreadable.contains(index) {
            throw VideoInputError.imageUnreadable(.notAnImage(path: "frame\(index).png"))
        }
        return Frame(image: picture ?? RGBImage(width: 16, height: 12, filledWith: (128, 128, 128)),
                     timestampSeconds: Double(index) / framesPerSecond, sourceName: name)
    }
}

/// An analyzer that finds nothing, and can be told to hang or to fail; it notes every frame time it
/// saw, and tells `onAnalyse` when it starts on one (an event a test can wait for).
final class ScriptedAnalyzer: SceneAnalyzing, @unchecked Sendable {
    enum Behaviour { case findsNothing, hangs, throwsError }
    let behaviour: Behaviour
    let onAnalyse: (@Sendable () -> Void)?
    let usesDepthModel = false
    private let seen = Mutex<[Double]>([])
    private let cancelled = Atomic<Bool>(false)
    private let hangOutlasted = Atomic<Bool>(false)
    private let cancelling = DispatchSemaphore(value: 0)

    /// Where it "finds" people in every frame (a test of what hangs on the detector's people).
    let people: [BoundingBox]

    init(_ behaviour: Behaviour = .findsNothing, people: [BoundingBox] = [], onAnalyse: (@Sendable () -> Void)? = nil) {
        self.behaviour = behaviour
        self.people = people
        self.onAnalyse = onAnalyse
    }

    var analysedFrameTimes: [Double] { seen.withLock { $0 } }
    var wasCancelled: Bool { cancelled.load(ordering: .relaxed) }
    /// A hang that reached its own 300 s end: nobody gave up on it in time.
    var hangRanToItsEnd: Bool { hangOutlasted.load(ordering: .relaxed) }

    func analyze(_ frame: Frame) throws -> SceneReport {
        seen.withLock { $0.append(frame.timestampSeconds) }
        onAnalyse?()
        switch behaviour {
        case .findsNothing:
            break
        case .hangs:
            // Hangs until cancelled (as an inference request would), woken by `cancel()`; the 300 s
            // bound only keeps a broken watchdog from hanging the test run for ever.
            if !cancelled.load(ordering: .relaxed) && cancelling.wait(timeout: .now() + 300) == .timedOut {
                hangOutlasted.store(true, ordering: .relaxed)
            }
        case .throwsError:
            throw DetectorError.emptyImage(source: frame.sourceName)
        }
        return SceneReport(source: frame.sourceName, imageWidth: frame.image.width, imageHeight: frame.image.height,
                           quality: .ok, objects: people.map { box in
                               LocatedObject(detection: Detection(classIndex: 0, label: "person", confidence: 0.9, box: box),
                                             direction: Direction(angleDegrees: 0, elevationDegrees: 0), distance: .unknown)
                           }, sentences: people.isEmpty ? ["No object detected."] : [], announced: [],
                           timings: StageTimings(), depthSource: "geometry")
    }

    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        cancelling.signal()
    }

    /// The real geometry of a chest-worn camera (the product's default), so sentences about
    /// found faces say real directions.
    func locate(_ detections: [Detection], in frame: Frame) throws -> [LocatedObject] {
        try ObjectLocator(camera: .chestWorn).locate(detections, in: frame)
    }
}

/// A voice that "speaks" 0.1 s of a steady tone per word, so lengths are known and synthesis is instant.
struct SteadyToneVoice: TextToSpeech {
    let sampleRate = 8000
    func synthesize(_ text: String) throws(SpeechError) -> SpeechAudio {
        let words = max(1, text.split(separator: " ").count)
        return SpeechAudio(samples: [Int16](repeating: 4000, count: words * sampleRate / 10), sampleRate: sampleRate)
    }
}

/// One session run over scripted frames, with everything it said and did: rendered offline on the
/// input's clock, or played live (`playLive`) on the test's `clock`, which moves only as the
/// session waits on it: no test of a live session sleeps or depends on the wall clock.
final class SessionHarness {
    let analyzer: ScriptedAnalyzer
    /// What the session takes for the wall clock.
    let clock = ManualClock()
    let audio = RecordingAudioOutput()
    let queue = UtteranceQueue(voice: SteadyToneVoice(), settings: UtteranceQueueSettings(pauseSeconds: 0.1))
    private(set) var states: [SessionState] = []
    private(set) var reports: [CycleReport] = []
    /// Everything queued to be said, heard or not.
    private(set) var said: [SpokenLine] = []
    private(set) var madeAnalyzers = 0
    private(set) var releasedModels = 0
    var configuration: SessionConfiguration
    /// When set, making an analyzer fails after this many (a model that cannot be loaded again).
    var analyzersThatLoad: Int?

    private var speaker: SpeakerOutput?
    private var firstAnalyzer: (any SceneAnalyzing)?

    init(_ analyzer: ScriptedAnalyzer = ScriptedAnalyzer(), kind: FrameInput.Kind = .recording,
         frameCostSeconds: Double = 0.1, source: @escaping @Sendable () -> ScriptedFrameSource) {
        self.analyzer = analyzer
        configuration = SessionConfiguration(
            input: FrameInput(name: "scripted.mp4", kind: kind) { _ in source() },
            clock: .input(audio: audio, frameCostSeconds: frameCostSeconds))
        configuration.wallClock = clock
        // The watchdog's timer and the frame reader's waits on the test's own threads too.
        configuration.taskExecutor = OwnThreads.shared
        // Generous: a busy test machine must not trip it; the watchdog's own test sets a short limit.
        configuration.watchdogSeconds = 600
        configuration.questionWatchdogSeconds = 600
    }

    /// Live instead: the session's clock is the test's, and the queue is played into nothing as
    /// that clock moves, as a sound card would play it in real time.
    func playLive() throws {
        let output = SpeakerOutput(queue: queue, device: ManualClockPlayback(clock: clock),
                                   feedback: Feedback(queue: queue, vibration: nil, report: { _ in }))
        try output.start()
        speaker = output
        configuration.clock = .realTime(outputLatencySeconds: 0)
    }

    /// `firstAnalyzer`: what the supply hands out first (later, and when it is nil, `analyzer`).
    func run(mode: GuidanceMode = .continuous, firstAnalyzer: (any SceneAnalyzing)? = nil) async throws -> (GuidanceSession, SessionEnding) {
        self.firstAnalyzer = firstAnalyzer
        let session = try makeSession(mode: mode)
        let ending = try await run(session)
        return (session, ending)
    }

    /// Runs `session` to its end: offline as fast as it renders; live with the test's clock moved
    /// on 10 ms at a time whenever the session (or its frame reader) waits on it.
    func run(_ session: GuidanceSession) async throws -> SessionEnding {
        let running = UncheckedSessionRun(session: session)
        // On threads of its own: tests beside it that wait for child processes must not hold it up.
        if case .realTime = configuration.clock {
            return try await OwnThreads.run { try await clock.run(steppingBy: .milliseconds(10)) { try await running.session.run() } }
        }
        return try await OwnThreads.run { try await running.session.run() }
    }

    /// `firstAnalyzer`: what the supply hands out first, as for `run`.
    func makeSession(mode: GuidanceMode = .continuous, firstAnalyzer first: (any SceneAnalyzing)? = nil) throws -> GuidanceSession {
        if let first { firstAnalyzer = first }
        let describer = try SceneDescriber()
        let supply = AnalyzerSupply(make: { [self] _ in
            if let limit = analyzersThatLoad, madeAnalyzers >= limit { throw ModelLoadFailure() }
            madeAnalyzers += 1
            if madeAnalyzers == 1, let firstAnalyzer { return firstAnalyzer }
            return analyzer
        }, release: { [self] in releasedModels += 1 })
        let session = GuidanceSession(configuration: configuration, analyzers: supply,
                                      requirements: AnalyzerRequirements(description: .standard),
                                      policy: GuidancePolicy(mode: mode, describer: describer),
                                      feedback: Feedback(queue: queue, vibration: RecordingVibration(), report: { _ in }),
                                      sentences: try SessionSentences.bundled()) { [self] event in
            switch event {
            case .stateChanged(let state, _): states.append(state)
            case .cycle(let report): reports.append(report)
            case .said(let line): said.append(line)
            }
        }
        return session
    }
}

/// A model that could not be loaded (again), said in one sentence.
struct ModelLoadFailure: UserFacingError {
    var userMessage: String { "The object model could not be loaded." }
}

/// Hands the session to the task that runs it; the test touches only its thread-safe controls meanwhile.
struct UncheckedSessionRun: @unchecked Sendable {
    let session: GuidanceSession
}

/// A sound card on the test's clock: it plays (renders the queue into nothing) exactly as long as
/// the clock is moved on, so what was heard when is known on that clock.
final class ManualClockPlayback: PlaybackDevice, @unchecked Sendable {
    let name = "test clock"
    let outputLatencySeconds = 0.0
    private let lock = NSLock()
    private var render: (@Sendable (UnsafeMutablePointer<Float>, Int, Int) -> Void)?
    private var sampleRateHz = 0.0
    private var owedFrames = 0.0

    init(clock: ManualClock) {
        clock.whenAdvanced { [weak self] duration in self?.play(for: duration) }
    }

    func start(sampleRateHz: Double, render: @escaping @Sendable (UnsafeMutablePointer<Float>, Int, Int) -> Void) throws {
        lock.withLock {
            self.sampleRateHz = sampleRateHz
            self.render = render
        }
    }

    var isPlaying: Bool { lock.withLock { render != nil } }

    func stop() { lock.withLock { render = nil } }

    private func play(for duration: Duration) {
        lock.withLock {
            guard let render else { return }
            let (whole, attoseconds) = duration.components
            owedFrames += (Double(whole) + Double(attoseconds) * 1e-18) * sampleRateHz
            var frames = Int(owedFrames)
            owedFrames -= Double(frames)
            let block = 256
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: block * 2)
            defer { buffer.deallocate() }
            while frames > 0 {
                let count = min(block, frames)
                render(buffer, count, 2)
                frames -= count
            }
        }
    }
}
