import AssistCore
import Foundation
import Guidance
@testable import LiveGuidance
import Media
import Synchronization
import Testing

/// Live sessions on the test's clock (`SessionHarness.playLive`): time passes as the session waits
/// on it, never by itself, so these tests neither sleep nor depend on how busy the machine is.
@Suite("Guidance session played live")
struct SessionLiveTests {
    private let sentences = try! SessionSentences.bundled()

    @Test("a recording played live is paced by its own clock, analysed frame by frame, and ends with End of video")
    func recordingPlayedLive() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 12, framesPerSecond: 20) }
        try harness.playLive()
        let (session, ending) = try await harness.run()
        #expect(ending == .inputEnded)
        // Frames come at their moments on the session's clock: the last, at 0.55 s, comes no sooner.
        let end = try #require(session.transcript().last)
        #expect(end.startSeconds >= 0.55, "12 frames at 20 per second take 0.6 s to play: ended at \(end.startSeconds) s")
        #expect(!harness.analyzer.analysedFrameTimes.isEmpty)
        #expect(harness.analyzer.analysedFrameTimes == harness.analyzer.analysedFrameTimes.sorted())
        let said = session.transcript()
        #expect(said.first?.text.hasSuffix(sentences.activated) == true)
        #expect(said.last?.text.hasSuffix(sentences.endOfVideo) == true)
        #expect(said.allSatisfy { $0.endSeconds >= $0.startSeconds })
    }

    @Test("on demand, with no request, a recording played live still ends with End of video")
    func onDemandRecordingEnds() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 12, framesPerSecond: 20) }
        // A safety net on the session's clock: without it a session that never notices the end
        // would rest for ever, and the test would run for ever.
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 300, request: .quit)]
        try harness.playLive()
        let (session, ending) = try await harness.run(mode: .onDemand)
        #expect(ending == .inputEnded)
        #expect(harness.analyzer.analysedFrameTimes.isEmpty, "nobody asked for a scan")
        let end = try #require(session.transcript().last)
        #expect(end.text.hasSuffix(sentences.endOfVideo))
        // Not before the recording has played; and long before the 300-s safety net. How soon after
        // its end is not this test's business: the clock steps on while the session rests, and
        // the frame reader's own work between its waits takes real time, which on a loaded machine
        // is many steps (the end came at 2.4 s of this clock under two CPU hogs and a build).
        #expect(end.startSeconds >= 0.55 && end.startSeconds < 60, "the end is said when the recording has played: \(end.startSeconds) s")
    }

    @Test("on demand, rendered offline with no request, a recording ends with End of video")
    func onDemandRecordingEndsOffline() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 30) }
        let (session, ending) = try await harness.run(mode: .onDemand)
        #expect(ending == .inputEnded)
        #expect(harness.analyzer.analysedFrameTimes.isEmpty)
        let last = try #require(session.transcript().last)
        #expect(last.text.hasSuffix(sentences.endOfVideo))
        #expect(last.startSeconds >= 2.8, "the end is said when the 3 s of input are over")
    }

    @Test("a camera that stops is opened again, and when it stays gone the user hears The stream stopped")
    func cameraLost() async throws {
        let opens = Atomic<Int>(0)
        let harness = SessionHarness(kind: .camera(devicePath: "/dev/video9")) {
            opens.add(1, ordering: .relaxed)
            return ScriptedFrameSource(frameCount: 4, framesPerSecond: 20, endError: .cameraDisconnected(device: "/dev/video9"))
        }
        harness.configuration.cameraRetries = 2
        harness.configuration.cameraRetryDelaySeconds = 0.5
        try harness.playLive()
        let (session, ending) = try await harness.run()
        #expect(ending == .streamStopped(reason: VideoInputError.cameraDisconnected(device: "/dev/video9").userMessage))
        // Each reopened camera also stops after 4 frames, so every retry is used.
        #expect(opens.load(ordering: .relaxed) >= 3)
        let said = session.transcript().map(\.text)
        // What is reported as said is exactly what was heard (the retry notice may be cut short
        // by the quick retries here, and is then reported as neither).
        #expect(harness.said.map { TranscriptEntry.text(for: $0.utterance) } == said)
        #expect(said.last?.contains(sentences.streamStopped) == true)
        #expect(said.last?.contains("check that it is still plugged in") == true)
        // The camera fails at once each time it is opened; each retry waited its half second on the session's clock.
        let end = try #require(session.transcript().last)
        #expect(end.startSeconds >= 2 * 0.5, "ended at \(end.startSeconds) s")
    }

    @Test("a camera's detector is made ready for its format while the camera starts, not when its first frame is in")
    func cameraPreparedBeforeFirstFrame() async throws {
        let prepared = DispatchSemaphore(value: 0)
        let analyzer = PreparingAnalyzer(signalling: prepared)
        let source = StartingCamera(waitingFor: prepared, then: ScriptedFrameSource(frameCount: 4, framesPerSecond: 20,
                                                                                   endError: .cameraDisconnected(device: "/dev/video9")))
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 0) }
        harness.configuration.input = FrameInput(name: "/dev/video9", kind: .camera(devicePath: "/dev/video9")) { _ in source }
        harness.configuration.input.expectedFrameSize = (16, 12)   // ScriptedFrameSource's pictures
        harness.configuration.cameraRetries = 0
        try harness.playLive()
        _ = try await harness.run(firstAnalyzer: analyzer)
        // The camera's first frame was held back until the detector was ready for its size: with
        // the detector prepared only at the first frame, it would have waited out its guard.
        let followed = source.firstFrameFollowedPreparing.load(ordering: .acquiring)
        #expect(followed)
        #expect(analyzer.preparedSizes.first == [16, 12])
        #expect(analyzer.preparedSizes.count == 1, "frames of that size need no second preparation")
        #expect(!analyzer.inner.analysedFrameTimes.isEmpty)
    }

    @Test("with a depth model that fails, guidance goes on with geometry and says so")
    func depthModelFails() async throws {
        let failingDepth = DepthFailingAnalyzer()
        let fallback = ScriptedAnalyzer()
        let harness = SessionHarness(fallback) { ScriptedFrameSource(frameCount: 20) }
        let (session, ending) = try await harness.run(firstAnalyzer: failingDepth)
        #expect(ending == .inputEnded)
        #expect(harness.states.contains(.degraded))
        #expect(session.transcript().contains { $0.text.hasSuffix(sentences.depthModelFailed) })
        #expect(fallback.analysedFrameTimes.count > 5, "the frames after the failure are analysed without the depth model")
    }

    @Test("switch camera, and a camera stored while running, are read from then on and said; one that cannot be opened leaves the last")
    func camerasChangedWhileRunning() async throws {
        let opened = Mutex<[String]>([])
        let camera: @Sendable (String) -> FrameInput = { device in
            FrameInput(name: device, kind: .camera(devicePath: device)) { _ in
                if device == "/dev/video7" { throw VideoInputError.failed(name: device, reason: "no such device") }
                opened.withLock { $0.append(device) }
                // A camera that never ends (read on its own thread, newest frame first).
                return ScriptedFrameSource(frameCount: 1_000_000, framesPerSecond: 20)
            }
        }
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 0) }
        harness.configuration.input = camera("/dev/video9")
        harness.configuration.cameraInput = camera
        harness.configuration.availableCameras = { ["/dev/video9", "/dev/video2"] }
        harness.configuration.cameraRetries = 0
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 0.3, request: .switchCamera),
                                                   ScheduledRequest(atSeconds: 2, request: .quit)]
        try harness.playLive()
        // On demand: the session rests on the test's clock between requests, so that clock moves.
        let session = try harness.makeSession(mode: .onDemand)
        let controls = session.controls
        // The camera setting, as the settings follower sends it: the one being read changes nothing.
        for (seconds, device) in [(0.8, "/dev/video4"), (1.3, "/dev/video4"), (1.5, "/dev/video7")] {
            session.schedule(atSeconds: seconds) { controls.update(SessionSettingsUpdate(camera: camera(device))) }
        }
        #expect(try await harness.run(session) == .userQuit)
        #expect(opened.withLock { $0 } == ["/dev/video9", "/dev/video2", "/dev/video4", "/dev/video4"])
        let said = session.transcript().map(\.text)
        let switches = said.filter { $0.contains("/dev/video") }
        #expect(switches == [SentenceFiles.fill(sentences.cameraSwitched, ["camera": "/dev/video2"]),
                             SentenceFiles.fill(sentences.cameraSwitched, ["camera": "/dev/video4"]),
                             SentenceFiles.fill(sentences.cameraSwitchFailed, ["camera": "/dev/video7"])])
    }
}

/// Fails as a broken depth model would, on every frame.
final class DepthFailingAnalyzer: SceneAnalyzing {
    let usesDepthModel = true
    func analyze(_ frame: Frame) throws -> SceneReport {
        throw VideoInputError.failed(name: "depth.onnx", reason: "inference failed")
    }
    func cancel() {}
}

/// Finds nothing (as `ScriptedAnalyzer`), and notes and signals each preparation for a frame size.
final class PreparingAnalyzer: SceneAnalyzing, @unchecked Sendable {
    let inner = ScriptedAnalyzer()
    private let signal: DispatchSemaphore
    private let sizes = Mutex<[[Int]]>([])
    var preparedSizes: [[Int]] { sizes.withLock { $0 } }

    init(signalling signal: DispatchSemaphore) { self.signal = signal }

    func prepare(for frame: Frame) throws {
        sizes.withLock { $0.append([frame.image.width, frame.image.height]) }
        signal.signal()
    }
    func analyze(_ frame: Frame) throws -> SceneReport { try inner.analyze(frame) }
    func cancel() { inner.cancel() }
    var usesDepthModel: Bool { false }
}

/// A camera whose first frame comes only once the detector is ready for it (or after a 10-minute
/// guard, so a session that never prepares ahead still ends, and the test says so: the guard is
/// reached only by that fault, never by a busy machine, where 30 s once came close).
final class StartingCamera: FrameSource, @unchecked Sendable {
    let name = "/dev/video9"
    private let ready: DispatchSemaphore
    private let frames: ScriptedFrameSource
    private var started = false
    let firstFrameFollowedPreparing = Atomic<Bool>(false)

    init(waitingFor ready: DispatchSemaphore, then frames: ScriptedFrameSource) {
        self.ready = ready
        self.frames = frames
    }

    func nextFrame() throws -> Frame? {
        if !started {
            started = true
            firstFrameFollowedPreparing.store(ready.wait(timeout: .now() + 600) == .success, ordering: .releasing)
        }
        return try frames.nextFrame()
    }
}
