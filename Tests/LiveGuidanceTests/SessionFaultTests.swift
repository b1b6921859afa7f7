import Foundation
import LiveGuidance
import Media
import TestSupport
import Testing

@Suite("Guidance session faults")
struct SessionFaultTests {
    private let sentences = try! SessionSentences.bundled()

    @Test("a detection that hangs past the watchdog is cancelled, says Detection failed and stops the run")
    func stalledDetection() async throws {
        let (analysing, started) = AsyncStream<Void>.makeStream()
        let harness = SessionHarness(ScriptedAnalyzer(.hangs, onAnalyse: { started.yield() })) { ScriptedFrameSource(frameCount: 50) }
        harness.configuration.watchdogSeconds = 0.3
        let session = try harness.makeSession()
        let unchecked = UncheckedSessionRun(session: session)
        // The test's own steps on the test's threads too: on Swift's global pool they waited
        // behind synchronous tests holding it (for 15 minutes under two CPU hogs), so the clock
        // was moved only after the hung analysis had run to its 300-s bound, three times over.
        let ending = try await OwnThreads.run {
            let running = Task(executorPreference: OwnThreads.shared) { try await unchecked.session.run() }
            // The detection has started and hangs; the watchdog waits on the session's clock. Moved
            // past its limit, the clock makes it give up, however long the machine took to get here.
            for await _ in analysing { break }
            try await harness.clock.sleeper(dueWithin: .seconds(0.3))
            harness.clock.advance(seconds: 0.3)
            return try await running.value
        }
        #expect(ending == .detectionFailed)
        #expect(ending.isFault)
        #expect(session.state == .stopped)
        #expect(harness.analyzer.wasCancelled)
        #expect(harness.analyzer.analysedFrameTimes.count == 1, "nothing is analysed after the watchdog fired")
        #expect(session.transcript().last?.text.hasSuffix("Detection failed.") == true)
        #expect(!harness.analyzer.hangRanToItsEnd, "the hung analysis was cancelled by the watchdog before it ended by itself")
    }

    @Test("a detection slower than the machine is never taken for a hang: only the clock reaching the limit fires the watchdog")
    func slowDetectionIsNotAHang() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 20) }
        // A limit no machine could reach on the wall clock while the test's clock stands still.
        harness.configuration.watchdogSeconds = 0.001
        let (session, ending) = try await harness.run()
        #expect(ending == .inputEnded)
        #expect(harness.analyzer.analysedFrameTimes.count > 5)
        #expect(session.transcript().last?.text.hasSuffix(sentences.endOfVideo) == true)
    }

    @Test("detections that throw put the session in Degraded, and too many in a row end it with Detection failed")
    func failingDetections() async throws {
        let harness = SessionHarness(ScriptedAnalyzer(.throwsError)) { ScriptedFrameSource(frameCount: 50) }
        harness.configuration.failedDetectionsBeforeStop = 3
        let (session, ending) = try await harness.run()
        #expect(ending == .detectionFailed)
        #expect(harness.states.contains(.degraded))
        #expect(harness.analyzer.analysedFrameTimes.count == 3)
        let said = session.transcript().map(\.text)
        #expect(said.contains { $0.hasSuffix(sentences.detectionError) })
        #expect(said.last?.hasSuffix(sentences.detectionFailed) == true)
    }

    @Test("unreadable frames are skipped, said once as Degraded, and guidance goes on to the end")
    func unreadableFramesSkipped() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 30, unreadable: [5, 6, 7, 8]) }
        let (session, ending) = try await harness.run()
        #expect(ending == .inputEnded)
        #expect(harness.states.contains(.degraded))
        let said = session.transcript().map(\.text)
        #expect(said.filter { $0.hasSuffix(sentences.unreadableFrames) }.count == 1)
        #expect(said.last?.hasSuffix(sentences.endOfVideo) == true)
        #expect(harness.analyzer.analysedFrameTimes.allSatisfy { ![0.5, 0.6, 0.7, 0.8].contains($0) })
    }

    @Test("an input whose frames keep failing ends as unreadable, with exit status 1")
    func unreadableInput() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 100, unreadable: Set(3..<100)) }
        harness.configuration.unreadableFramesBeforeStop = 10
        let (session, ending) = try await harness.run()
        #expect(ending == .unreadableInput)
        #expect(ending.isFault)
        #expect(session.transcript().last?.text.hasSuffix(sentences.unreadableInput) == true)
    }

    @Test("a stream that ends mid-run says The stream stopped and exits with status 1")
    func streamEnds() async throws {
        let harness = SessionHarness(kind: .stream) {
            ScriptedFrameSource(frameCount: 20, endError: .streamEnded(url: "rtsp://camera.local/stream"))
        }
        let (session, ending) = try await harness.run()
        guard case .streamStopped = ending else {
            Issue.record("ended as \(ending)")
            return
        }
        #expect(ending.isFault)
        #expect(session.transcript().last?.text.contains(sentences.streamStopped) == true)
        #expect(session.state == .stopped)
    }

    @Test("a file that ends says End of video and exits with status 0")
    func fileEnds() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 20) }
        let (session, ending) = try await harness.run()
        #expect(ending == .inputEnded)
        #expect(!ending.isFault)
        let said = session.transcript().map(\.text)
        #expect(said.first?.hasSuffix(sentences.activated) == true)
        #expect(said.last?.hasSuffix(sentences.endOfVideo) == true)
        #expect(harness.states == [.active, .stopped])
    }
}
