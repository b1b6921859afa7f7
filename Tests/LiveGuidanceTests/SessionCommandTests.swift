import AssistCore
import Foundation
import TestSupport
import LiveGuidance
import Media
import Speech
import Synchronization
import Testing

@Suite("Guidance session commands and clock")
struct SessionCommandTests {
    private let sentences = try! SessionSentences.bundled()

    @Test("pause stops analysis until resume, and both are said at the moment they were given")
    func pauseAndResume() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 50) }
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 1, request: .pause),
                                                   ScheduledRequest(atSeconds: 3, request: .resume)]
        let (session, _) = try await harness.run()
        let times = harness.analyzer.analysedFrameTimes
        #expect(!times.isEmpty)
        #expect(times.allSatisfy { $0 < 1 || $0 >= 3 }, "analysed while paused: \(times)")
        #expect(times.contains { $0 >= 3 }, "analysis resumed")
        let transcript = session.transcript()
        let paused = try #require(transcript.first { $0.text.hasSuffix(sentences.paused) })
        let resumed = try #require(transcript.first { $0.text.hasSuffix(sentences.resumed) })
        // Said as soon as what was being said at that moment has finished.
        #expect(paused.startSeconds >= 1 && paused.startSeconds < 1.5, "paused at \(paused.startSeconds) s")
        #expect(resumed.startSeconds >= 3 && resumed.startSeconds < 3.5, "resumed at \(resumed.startSeconds) s")
    }

    @Test("on demand analyses nothing until scan now, then the newest frame once, and answers after it")
    func onDemandScan() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 50) }
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 2.5, request: .scanNow)]
        let (session, _) = try await harness.run(mode: .onDemand)
        #expect(harness.analyzer.analysedFrameTimes == [2.5])
        let answers = session.transcript().filter {
            !$0.text.hasSuffix(sentences.activated) && !$0.text.hasSuffix(sentences.endOfVideo)
        }
        #expect(!answers.isEmpty, "scan now is answered")
        #expect(answers.allSatisfy { $0.startSeconds >= 2.5 })
    }

    @Test("offline speech is aligned with input time: a sentence given at 3 s starts 3 s into the audio")
    func renderAlignment() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 50) }
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 3, request: .pause)]
        _ = try await harness.run()
        let samples = harness.audio.samples
        let rate = harness.queue.sampleRateHz
        func frameIndex(_ seconds: Double) -> Int { Int(seconds * rate) }
        let firstSoundAfter2s = (frameIndex(2)..<(samples.count / 2)).first { samples[2 * $0] != 0 || samples[2 * $0 + 1] != 0 }
        let start = Double(try #require(firstSoundAfter2s)) / rate
        #expect(abs(start - 3) < 0.005, "the pause sentence starts at \(start) s")
        #expect(Double(samples.count / 2) / rate >= 5, "the track runs at least as long as the video")
    }

    @Test("capture to first audio is measured for each frame that said something")
    func captureToFirstAudio() async throws {
        let harness = SessionHarness(frameCostSeconds: 0.1) { ScriptedFrameSource(frameCount: 50) }
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 2.5, request: .scanNow)]
        let (session, _) = try await harness.run(mode: .onDemand)
        // The frame at 2.5 s is processed for 0.1 s; the queue is idle, so the answer starts then.
        #expect(session.captureToFirstAudioMilliseconds.count == 1)
        let latency = try #require(session.captureToFirstAudioMilliseconds.first)
        #expect(abs(latency - 100) < 2, "latency \(latency) ms")
        let frame = try #require(harness.reports.first { $0.event == nil })
        #expect(frame.timings.captureToFirstAudioMilliseconds == latency)
    }

    @Test("after-use gives the model back after inactivity, and the next request takes it again")
    func afterUse() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 60) }
        harness.configuration.afterUseSeconds = 2
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 4, request: .scanNow)]
        let (session, _) = try await harness.run(mode: .onDemand)
        #expect(harness.releasedModels == 1)
        #expect(harness.madeAnalyzers == 2)
        #expect(harness.states.prefix(3) == [.active, .afterUse, .active])
        let said = session.transcript()
        let released = try #require(said.first { $0.text.hasSuffix(sentences.afterUseFileInput) })
        #expect(abs(released.startSeconds - 2) < 0.15)
        #expect(said.contains { $0.text.hasSuffix(sentences.reactivated) && $0.startSeconds >= 4 })
        #expect(harness.analyzer.analysedFrameTimes == [4])
    }

    @Test("scan now after after-use, when the model cannot be loaded again, is answered with that failure, not carried out")
    func scanAfterFailedReactivation() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 60) }
        harness.configuration.afterUseSeconds = 2
        harness.configuration.scheduledLines = [ScheduledLine(atSeconds: 4, text: "scan now")]
        harness.analyzersThatLoad = 1
        let session = try harness.makeSession(mode: .onDemand)
        let outcomes = Mutex<[SessionRequestOutcome]>([])
        let controls = session.controls
        session.carryOutLine = { _ in controls.send(.scanNow) { outcome in outcomes.withLock { $0.append(outcome) } } }
        _ = try await session.run()
        let failure = SentenceFiles.fill(sentences.reactivationFailed, ["reason": ModelLoadFailure().userMessage])
        #expect(outcomes.withLock { $0 } == [.failed(failure)])
        #expect(session.transcript().contains { $0.text.hasSuffix(failure) && $0.startSeconds >= 4 })
        #expect(!session.transcript().contains { $0.text.hasSuffix(sentences.reactivated) })
        #expect(harness.analyzer.analysedFrameTimes.isEmpty, "nothing was described without a model")
    }

    @Test("scan now after after-use that takes the model again is answered carried out")
    func scanAfterReactivation() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 60) }
        harness.configuration.afterUseSeconds = 2
        harness.configuration.scheduledLines = [ScheduledLine(atSeconds: 4, text: "scan now")]
        let session = try harness.makeSession(mode: .onDemand)
        let outcomes = Mutex<[SessionRequestOutcome]>([])
        let controls = session.controls
        session.carryOutLine = { _ in controls.send(.scanNow) { outcome in outcomes.withLock { $0.append(outcome) } } }
        _ = try await session.run()
        #expect(outcomes.withLock { $0 } == [.carriedOut])
        #expect(harness.analyzer.analysedFrameTimes == [4])
    }

    @Test("a command sent after the session ended is answered not carried out, with the session's last sentence")
    func commandAfterEnd() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 10) }
        let session = try harness.makeSession()
        #expect(try await session.run() == .inputEnded)
        let outcomes = Mutex<[SessionRequestOutcome]>([])
        session.controls.send(.scanNow) { outcome in outcomes.withLock { $0.append(outcome) } }
        #expect(outcomes.withLock { $0 } == [.notCarriedOut(sentences.endOfVideo)])
    }

    @Test("exit says goodbye and ends the run normally")
    func quit() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 50) }
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 1.5, request: .quit)]
        let (session, ending) = try await harness.run()
        #expect(ending == .userQuit)
        #expect(session.transcript().last?.text.hasSuffix(sentences.goodbye) == true)
        #expect(harness.analyzer.analysedFrameTimes.allSatisfy { $0 <= 1.5 })
    }

    @Test("battery saver is announced and halves the analysed frames")
    func batterySaver() async throws {
        let normal = SessionHarness { ScriptedFrameSource(frameCount: 40) }
        _ = try await normal.run()
        let saving = SessionHarness { ScriptedFrameSource(frameCount: 40) }
        saving.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 0, request: .setBatterySaver(true))]
        let (session, _) = try await saving.run()
        #expect(session.transcript().contains { $0.text.hasSuffix(sentences.batterySaverOn) })
        let full = normal.analyzer.analysedFrameTimes.count, saved = saving.analyzer.analysedFrameTimes.count
        #expect(abs(Double(saved) - Double(full) / 2) <= 1, "\(saved) frames with the saver, \(full) without")
    }

    @Test("a scheduled typed line is carried out at its moment, and what it sends is handled at that moment")
    func scheduledLine() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 50) }
        // Off the frames' 0.1 s grid: handled at the next frame's time, this would be late.
        harness.configuration.scheduledLines = [ScheduledLine(atSeconds: 2.03, text: "stop detection")]
        let session = try harness.makeSession()
        var carriedOut: [String] = []
        let controls = session.controls
        session.carryOutLine = { line in
            carriedOut.append(line)
            controls.send(.pause)
        }
        let ending = try await session.run()
        #expect(ending == .inputEnded)
        #expect(carriedOut == ["stop detection"])
        // Reported as said when it was heard: at once, or after the sentence being heard and its pause.
        let paused = try #require(harness.said.first { $0.utterance.text == sentences.paused })
        let heard = try #require(session.transcript().first { $0.text.hasSuffix(sentences.paused) })
        #expect(paused.timeSeconds == heard.startSeconds)
        #expect(paused.timeSeconds >= 2.03 && paused.timeSeconds < 2.03 + 0.5, "said at \(paused.timeSeconds)")
        #expect(harness.analyzer.analysedFrameTimes.allSatisfy { $0 <= 2.03 })
    }

    @Test("an action scheduled by another input (a recorded spoken command) runs at its moment on the input's clock, in order with a line due then")
    func scheduledAction() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 50) }
        harness.configuration.scheduledLines = [ScheduledLine(atSeconds: 3.01, text: "resume")]
        let session = try harness.makeSession()
        var carriedOut: [String] = []
        let controls = session.controls
        session.carryOutLine = { line in
            carriedOut.append(line)
            controls.send(.resume)
        }
        // Scheduled after the line but due earlier, and a second one due with the line: each at
        // its own time, the second after the line given first.
        session.schedule(atSeconds: 1.27) {
            carriedOut.append("heard: stop detection")
            controls.send(.pause)
        }
        session.schedule(atSeconds: 3.01) { carriedOut.append("heard: after the line") }
        let ending = try await session.run()
        #expect(ending == .inputEnded)
        #expect(carriedOut == ["heard: stop detection", "resume", "heard: after the line"])
        let paused = try #require(session.transcript().first { $0.text.hasSuffix(sentences.paused) })
        #expect(paused.startSeconds >= 1.27 && paused.startSeconds < 1.27 + 0.5, "said at \(paused.startSeconds)")
        // Nothing analysed while paused (from 1.27 s to 3.01 s), and analysis again after.
        let times = harness.analyzer.analysedFrameTimes
        #expect(!times.contains { $0 > 1.27 && $0 < 3.01 }, "\(times)")
        #expect(times.contains { $0 > 3.01 }, "\(times)")
    }

    @Test("a command sent through the controls from another task is handled between frames")
    func controlsFromAnotherTask() async throws {
        // Sent once the session is taking frames (the third is read), however long it takes to get there.
        let (framesTaken, taking) = AsyncStream<Void>.makeStream()
        let harness = SessionHarness {
            ScriptedFrameSource(frameCount: 10_000_000, onFrame: { if $0 == 2 { taking.yield(); taking.finish() } })
        }
        let session = try harness.makeSession()
        let running = UncheckedSessionRun(session: session)
        let run = Task(executorPreference: OwnThreads.shared) { try await running.session.run() }
        for await _ in framesTaken {}
        session.controls.send(.quit)
        let ending = try await run.value
        #expect(ending == .userQuit)
        #expect(session.controls.snapshot.state == .stopped)
    }
}

@Suite("Transcript")
struct SessionTranscriptTests {
    @Test("SubRip entries are numbered, timed to the millisecond and separated by a blank line")
    func subRipFormat() {
        let text = SubRipTranscript.render([
            TranscriptEntry(startSeconds: 0, endSeconds: 1.8041, text: "[tone started] Assistive Vision activated."),
            TranscriptEntry(startSeconds: 3723.4567, endSeconds: 3725, text: "Bus, 4 meters, ahead."),
        ])
        #expect(text == """
        1
        00:00:00,000 --> 00:00:01,804
        [tone started] Assistive Vision activated.

        2
        01:02:03,457 --> 01:02:05,000
        Bus, 4 meters, ahead.

        """)
    }

    @Test("the transcript text puts the tone before the words, and a tone alone is just the tone")
    func transcriptText() {
        #expect(TranscriptEntry.text(for: Utterance("Bus, 4 meters, ahead.", priority: .hazard, earcon: .vehicleHazard))
                == "[tone vehicle] Bus, 4 meters, ahead.")
        #expect(TranscriptEntry.text(for: .tone(.nothingFound)) == "[tone nothing-found]")
        #expect(TranscriptEntry.text(for: Utterance(["Chair, 2 meters, left.", "Door ahead."], priority: .newObject))
                == "Chair, 2 meters, left. Door ahead.")
    }
}
