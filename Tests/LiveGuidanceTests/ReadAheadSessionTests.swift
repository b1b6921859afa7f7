import AssistCore
import Foundation
import Guidance
import Media
import Perception
import Testing
import TestSupport
@testable import LiveGuidance

/// Frames of a small grey picture, 10 a second; every read from `heldFromRead` on waits at a gate
/// the test opens. It notes the reads it started.
private final class HeldFrameSource: FrameSource, @unchecked Sendable {
    let name = "held.mp4"
    let heldFromRead: Int
    private let events = NSCondition()
    private var started = 0
    private let gate = DispatchSemaphore(value: 0)

    init(heldFromRead: Int) { self.heldFromRead = heldFromRead }

    var readsStarted: Int { events.withLock { started } }
    func open() { for _ in 0..<100 { gate.signal() } }

    func nextFrame() throws -> Frame? {
        let read = events.withLock { () -> Int in
            started += 1
            return started
        }
        if read >= heldFromRead { gate.wait() }
        return Frame(image: RGBImage(width: 16, height: 12, filledWith: (128, 128, 128)),
                     timestampSeconds: Double(read - 1) / 10, sourceName: name)
    }
}

@Suite("Decoding the next frame while one is analysed, in the session (issue 20, item 3)")
struct ReadAheadSessionTests {
    /// Said and reported by an offline session, every frame analysed, with reading ahead on or off.
    private struct Run {
        var said: [String]
        var saidAt: [Double]
        var frameTimes: [Double]
        var objects: [[String]]
        var ending: SessionEnding
    }

    private static func run(readingAhead: Bool, analyzer: (any SceneAnalyzing)? = nil, frameCostSeconds: Double = 0.05,
                            input: @escaping @Sendable () throws -> any FrameSource) async throws -> Run {
        let harness = SessionHarness(frameCostSeconds: frameCostSeconds) { ScriptedFrameSource(frameCount: 0) }
        harness.configuration.input = FrameInput(name: "video.mp4", kind: .recording) { _ in try input() }
        harness.configuration.readsFrameAhead = readingAhead
        harness.configuration.analysisSchedule = .everyFrame
        let (_, ending) = try await harness.run(mode: .continuous, firstAnalyzer: analyzer)
        let cycles = harness.reports.filter { $0.event == nil }
        return Run(said: harness.said.map(\.printedText), saidAt: harness.said.map(\.timeSeconds),
                   frameTimes: cycles.map(\.time),
                   objects: cycles.map { $0.objects.map { "\($0.detection.label) \($0.direction) \($0.distance)" } },
                   ending: ending)
    }

    @Test("on a real video with the real detector, reading ahead analyses the same frames and says the same sentences at the same times")
    func sameAsFrameByFrame() async throws {
        let folder = try TemporaryFolder.make("read-ahead-session")
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("bus-then-people.mp4")
        try Program.ffmpeg(["-loop", "1", "-framerate", "10", "-t", "1.5", "-i", SharedFiles.bus.path,
                            "-loop", "1", "-framerate", "10", "-t", "1.5", "-i", SharedFiles.zidane.path,
                            "-filter_complex", "[0]scale=640:480,setsar=1[a];[1]scale=640:480,setsar=1[b];[a][b]concat=n=2[v]",
                            "-map", "[v]", "-r", "10", "-c:v", "mpeg4", "-q:v", "3", video.path])
        let detector = try ObjectDetector(modelURL: SharedFiles.model("yolo11n_int8_openvino_model/yolo11n.xml"),
                                          options: InferenceOptions(cacheDirectory: nil))
        let analyzer = try SceneAnalyzer(detector: detector, locator: try ObjectLocator(), describer: try SceneDescriber())
        let open: @Sendable () throws -> any FrameSource = { try VideoFrameSource(.file(video)) }
        let frameByFrame = try await Self.run(readingAhead: false, analyzer: analyzer, input: open)
        let readingAhead = try await Self.run(readingAhead: true, analyzer: analyzer, input: open)
        #expect(frameByFrame.ending == .inputEnded)
        #expect(readingAhead.ending == .inputEnded)
        #expect(frameByFrame.frameTimes.count == 30)
        #expect(readingAhead.frameTimes == frameByFrame.frameTimes)
        #expect(readingAhead.objects == frameByFrame.objects)
        #expect(frameByFrame.objects.joined().contains { $0.hasPrefix("bus") }, "the detector saw the bus")
        #expect(readingAhead.said == frameByFrame.said)
        #expect(readingAhead.saidAt == frameByFrame.saidAt)
    }

    @Test("exit while the next frame is held in its read ends the session without waiting for that read")
    func exitDuringReadAhead() async throws {
        let source = HeldFrameSource(heldFromRead: 5)
        defer { source.open() }
        let harness = SessionHarness(frameCostSeconds: 0.1) { ScriptedFrameSource(frameCount: 0) }
        harness.configuration.input = FrameInput(name: "held.mp4", kind: .recording) { _ in source }
        harness.configuration.readsFrameAhead = true
        // Frame 2 (0.2 s) is taken with frame 3 peeked; the reading thread then goes on to read 5
        // (frame 4), which is held until the test ends.
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 0.15, request: .quit)]
        let (session, ending) = try await harness.run()
        #expect(ending == .userQuit)
        #expect(session.state == .stopped)
        // run() returned with the gate still closed: it did not wait for read 5, which the reading
        // thread had started or, stopped first, never starts.
        #expect((4...5).contains(source.readsStarted))
        #expect(harness.analyzer.analysedFrameTimes.count <= 3)
    }

    @Test("a damaged stretch and a video cut short mid-stream are said exactly as when reading frame by frame")
    func errorsReported() async throws {
        let cutShort = VideoInputError.endedEarly(name: "scripted.mp4", playedSeconds: 3, declaredSeconds: 10)
        let open: @Sendable () throws -> any FrameSource = {
            ScriptedFrameSource(frameCount: 30, unreadable: [10, 11, 12, 13], endError: cutShort)
        }
        let frameByFrame = try await Self.run(readingAhead: false, frameCostSeconds: 0.1, input: open)
        let readingAhead = try await Self.run(readingAhead: true, frameCostSeconds: 0.1, input: open)
        #expect(readingAhead.ending == .streamStopped(reason: cutShort.userMessage))
        #expect(readingAhead.ending == frameByFrame.ending)
        #expect(readingAhead.said == frameByFrame.said)
        #expect(readingAhead.saidAt == frameByFrame.saidAt)
        #expect(readingAhead.frameTimes == frameByFrame.frameTimes)
        #expect(readingAhead.said.contains { $0.contains(cutShort.userMessage) })
        let sentences = try SessionSentences.bundled()
        #expect(readingAhead.said.contains { $0.hasSuffix(sentences.unreadableFrames) })
    }
}
