import Foundation
import Testing

/// The live `assist see` when something breaks mid-run: each fault ends in its spoken sentence
/// (the transcript's last entry) and the contract's exit status, never in silence or a crash.
@Suite("live assist see, when things break", .serialized)
struct LiveFaultTests {
    @Test("an MJPEG stream over HTTP that dies mid-run: \"The stream stopped.\" and exit status 1")
    func streamEndsMidRun() throws {
        let fixtures = try LiveFixtures()
        defer { fixtures.remove() }
        let server = try LiveStreamServer()
        defer { server.stop() }
        // The model loads and the street is announced in the first seconds; then the sender vanishes.
        let run = try LiveRun.run(server.url, ["--mode", "continuous"], in: fixtures, json: true,
                                  meanwhile: { Thread.sleep(forTimeInterval: 6); server.stop() })
        LiveScenarioChecks.expectFramed(run, closing: LiveSentences.streamStopped, status: 1)
        #expect(run.guidance.contains { LiveScenarioChecks.mentions($0, ["bus"]) },
                "the stream was not read before it stopped\n\(run.transcriptListing)")
        #expect(!run.transcript.contains { $0.spoken == LiveSentences.endOfVideo })
        #expect(!run.frames.isEmpty, "no --json frame lines")
    }

    @Test("a second of undecodable frames mid-video: skipped, the run goes on to the end of the video")
    func briefDamageIsSkipped() throws {
        let fixtures = try LiveFixtures()
        defer { fixtures.remove() }
        let video = try fixtures.videoWithUnreadableFrames(30..<40, seconds: 7)
        let run = try LiveRun.run(video.path, ["--mode", "continuous"], in: fixtures, json: true)
        LiveScenarioChecks.expectFramed(run, closing: LiveSentences.endOfVideo, status: 0)
        LiveScenarioChecks.expectAligned(run, inputSeconds: 7)
        let times = run.frames.compactMap { $0["time"] as? Double }
        #expect(times.contains { $0 < 3 } && times.contains { $0 > 4 }, "frames before and after the damage were analysed: \(times)")
        #expect(!times.contains { $0 >= 3.05 && $0 < 3.95 }, "a damaged frame was analysed: \(times)")
    }

    @Test("six seconds of undecodable frames: the user hears that the video cannot be read, exit status 1")
    func longDamageIsAFault() throws {
        let fixtures = try LiveFixtures()
        defer { fixtures.remove() }
        let video = try fixtures.videoWithUnreadableFrames(20..<80, seconds: 9)
        let run = try LiveRun.run(video.path, ["--mode", "continuous"], in: fixtures, json: true)
        #expect(run.status == 1, "exit status \(run.status)\n\(run.transcriptListing)")
        #expect(run.transcript.first?.spoken == LiveSentences.activated, "\(run.transcriptListing)")
        let closing = try #require(run.transcript.last, "nothing was said")
        #expect(![LiveSentences.activated, LiveSentences.endOfVideo, LiveSentences.detectionFailed].contains(closing.spoken),
                "the run did not end on a sentence about the unreadable video\n\(run.transcriptListing)")
        #expect(closing.start >= 1.9, "the fault was said before the damaged part: \(closing)")
        #expect(LiveScenarioChecks.mentions(closing, ["video", "read", "frame", "picture"]),
                "the last sentence does not say what failed: \(closing)")
        #expect(run.guidance.contains { LiveScenarioChecks.mentions($0, ["bus"]) && $0.start < 2 },
                "the good part before the damage was not described\n\(run.transcriptListing)")
    }

    @Test("a model that stalls: the watchdog says \"Detection failed.\" and the run ends with exit status 1")
    func stalledModelTripsTheWatchdog() throws {
        let fixtures = try LiveFixtures()
        defer { fixtures.remove() }
        let modelFolder = fixtures.folder.appendingPathComponent("stalling-model")
        try FileManager.default.createDirectory(at: modelFolder, withIntermediateDirectories: true)
        let model = try LiveStallingModel.write(to: modelFolder)
        let video = try fixtures.frozenFrame(seconds: 5)
        let clock = ContinuousClock(), start = clock.now
        let run = try LiveRun.run(video.path, ["--mode", "continuous", "--model", model.path, "--watchdog", "1"], in: fixtures)
        let elapsed = clock.now - start
        LiveScenarioChecks.expectFramed(run, closing: LiveSentences.detectionFailed, status: 1)
        #expect(run.guidance.isEmpty, "something was announced from a model that never answered\n\(run.transcriptListing)")
        // It stops at the watchdog, not after the inference finally ends, nor at the end of the video.
        #expect(elapsed < .seconds(30), "took \(elapsed)")
    }
}
