import AssistCore
import Foundation
import Guidance
import Media
import Perception
import Speech

/// The live loop: frames in, spoken guidance out, in safe states.
///
/// frame source → pacing (newest frame wins live; the video's own clock offline) → analysis under
/// a watchdog → tracking → the class-free corridor cue when the mode wants it → the mode's policy
/// → the utterance queue (priorities, no overlapping speech) and vibration.
///
/// Driving it: build it, hand `controls` to whatever delivers commands and settings (a console, a
/// socket, voice recognition, the settings store), then `await run()`. `run` returns how the
/// session ended; events (what was said, one report per analysed frame, state changes) go to
/// `onEvent` as they happen, on the task that runs the session.
///
/// States: Ready → (start-up checks: model, input, audio) → "Assistive Vision activated." → Active;
/// Degraded when a part fails and guidance goes on with what still works (the depth model,
/// unreadable frames, failing detections); After-use when on-demand guidance had no request for
/// `afterUseSeconds` (camera and model are given back, and taken again at the next request);
/// Stopped at the end: "End of video.", "The stream stopped.", "Detection failed.", "Goodbye.".
public final class GuidanceSession {
    public let controls = SessionControls()
    public let configuration: SessionConfiguration
    public internal(set) var state = SessionState.ready
    public internal(set) var policy: GuidancePolicy
    /// Capture → first audible sample of what each analysed frame made the assistant say, in
    /// milliseconds, for every frame that said something (benchmarks read it after the run).
    public var captureToFirstAudioMilliseconds: [Double] { speechTimeline.captureToFirstAudioMilliseconds }
    public internal(set) var framesAnalysed = 0
    /// Frames the analysis schedule let pass (the tracker carried the scene over them).
    public internal(set) var framesPassedOver = 0

    /// Frames in, scene reports out: the analyzer, its preparation and the watchdog.
    let analysis: AnalysisRunner
    let feedback: Feedback
    let sentences: SessionSentences
    let onEvent: (SessionEvent) -> Void

    var tracker = ObjectTracker()
    var input: FrameInput
    let feed: FrameFeed
    var pacing: FramePacing
    /// Where the obstacle cues look: `configuration.corridor` at start, then the camera the
    /// settings name (a field of view changed while running moves it too).
    var corridor: WalkingCorridor
    var ending: SessionEnding?
    var paused = false
    var batterySaving: BatterySaving
    var requestPending = false
    /// Questions about the picture asked since the last frame was taken, answered on the next one.
    var pendingQuestions: [PictureQuestion] = []
    /// Short-text mode ("read text"): every frame is read, and steady new text is said.
    var readingShortText = false
    /// Every "stop" and "exit" as it is sent: an answer worked out meanwhile is not said.
    let silenceRequests = SilenceRequests()
    /// Set while a command is handled when it could not be carried out: the sentence said instead
    /// (the answer `SessionControls.send(_:answer:)` passes on).
    var requestFailure: String?
    var lastRequestSeconds = 0.0
    /// When the user last gave a command (the analysis schedule looks closely for a while after).
    var lastCommandSeconds: Double?
    var schedule: AnalysisSchedule
    var degradedReasons: Set<String> = []
    var closingSentence: (utterance: Utterance, event: String)?
    /// A folder of pictures described one scene at a time (see `FrameInput.picturesAreScenes`).
    /// In navigation and find the pictures are a walk instead: followed frame by frame, tracked.
    let picturesAsScenes: Bool
    /// The last analysed frame held object announcements back (the channel was busy): the first
    /// frame seen once it is free is analysed, whatever the schedule says (`plannedAnalysis`).
    var announcementsHeldBack = false
    var cameraRetries = CameraRetries()
    /// Scheduled items and what `controls` were sent, in the order the session acts on them.
    let inbox: RequestInbox
    /// Carries out a scheduled typed line (the command language), driving the session through
    /// `controls`; set before `run`. Without it, scheduled lines are ignored.
    public var carryOutLine: ((String) -> Void)? {
        get { inbox.carryOutLine }
        set { inbox.carryOutLine = newValue }
    }

    /// What was queued, heard and taken out when, and the reports waiting for their first audio.
    let speechTimeline = SpeechTimeline()
    /// Offline: how far the speech track is rendered, in audio frames.
    var renderedAudioFrames = 0
    /// Seconds since the session was made, on `SessionConfiguration.wallClock`.
    let wallClock: ElapsedClock

    public init(configuration: SessionConfiguration, analyzers: AnalyzerSupply, requirements: AnalyzerRequirements,
                policy: GuidancePolicy, feedback: Feedback, sentences: SessionSentences,
                onEvent: @escaping (SessionEvent) -> Void = { _ in }) {
        self.configuration = configuration
        self.policy = policy
        self.feedback = feedback
        self.sentences = sentences
        self.onEvent = onEvent
        input = configuration.input
        wallClock = ElapsedClock(configuration.wallClock, executor: configuration.taskExecutor)
        analysis = AnalysisRunner(supply: analyzers, requirements: requirements, clock: wallClock,
                                  watchdogSeconds: configuration.watchdogSeconds,
                                  questionWatchdogSeconds: configuration.questionWatchdogSeconds,
                                  failuresBeforeStop: configuration.failedDetectionsBeforeStop)
        switch policy.mode {
        case .continuous, .onDemand, .explore: picturesAsScenes = configuration.input.picturesAreScenes
        case .navigate, .find, .light: picturesAsScenes = false
        }
        feed = FrameFeed(reading: picturesAsScenes ? .pictures : configuration.isOffline ? .offline : .live,
                         configuration: configuration)
        batterySaving = BatterySaving(byUser: configuration.batterySaver)
        corridor = configuration.corridor
        schedule = AnalysisSchedule(policy: configuration.analysisSchedule)
        pacing = FramePacing(rate: configuration.intervalSeconds.map { .fixedInterval(seconds: $0) } ?? .asFastAsPossible,
                             batterySaving: configuration.batterySaver)
        inbox = RequestInbox(controls: controls, requests: configuration.scheduledRequests, lines: configuration.scheduledLines,
                             goodbye: sentences.goodbye)
        let queue = feedback.queue, quitting = analysis.quitting, silenceRequests = silenceRequests
        controls.actImmediately { command in
            switch command {
            case .stopTalking:
                silenceRequests.note()
                queue.stop()
            case .quit:
                silenceRequests.note()
                queue.setContinuousTone(pitchHz: nil)
                queue.abandonPlanning()
                queue.stop()
                quitting.abandon()
            default: break
            }
        }
    }

    /// Runs until the input ends, the user quits or a fault stops guidance. Throws when a
    /// start-up check fails (the sentence was said, and nothing ran).
    public func run() async throws(SessionStartupError) -> SessionEnding {
        try await start()
        if picturesAsScenes {
            await runPictures()
        } else if configuration.isOffline {
            await runOffline()
        } else {
            await runLive()
        }
        await finish()
        return ending ?? .inputEnded
    }

    /// Runs the session as a service fed by `requests`: a console, a socket or a voice listener
    /// beside it only turns its input (the user's commands) into requests. Ends as `run()` does;
    /// the stream is no longer read once the session ended.
    public func run(requests: AsyncStream<SessionRequest>) async throws(SessionStartupError) -> SessionEnding {
        let controls = self.controls
        let feeding = Task(executorPreference: configuration.taskExecutor) {
            for await request in requests { controls.send(request) }
        }
        defer { feeding.cancel() }
        return try await run()
    }

    /// Calls `action` at `seconds` on the session clock (input time offline), on the session's own
    /// task, and handles what it sent through `controls` at that moment, as for a `--at` line.
    /// Set before `run`: what an input knows ahead of time (a recording of spoken commands in an
    /// offline render) then happens at its time on the input's clock, however fast the render goes.
    public func schedule(atSeconds seconds: Double, _ action: @escaping () -> Void) {
        inbox.schedule(atSeconds: seconds, action)
    }

    /// The transcript of everything heard so far (times on the session clock).
    public func transcript() -> [TranscriptEntry] {
        speechTimeline.history.transcript(endingAt: nowSeconds)
    }

    // MARK: Start-up and end

    private func start() async throws(SessionStartupError) {
        do {
            try analysis.load()
        } catch {
            try await failStartup(userMessage(for: error), kind: .model)
        }
        do {
            try openInput()
        } catch {
            try await failStartup(userMessage(for: error), kind: .input)
        }
        enter(.active)
        // Told to exit before it started (Ctrl-C while the models loaded): "Goodbye." alone, not
        // "activated" and "Goodbye." in one breath.
        if !analysis.quitting.isAbandoned {
            say(Utterance(sentences.activated, priority: .status, contentKey: "session:activated", earcon: .started))
        }
        emitEvent("activated", analysisSchedule: schedule.policy, precision: analysis.analyzer?.precision)
        lastRequestSeconds = nowSeconds
    }

    private func failStartup(_ reason: String, kind: SessionStartupError.Kind) async throws(SessionStartupError) {
        let sentence = SentenceFiles.fill(sentences.startupFailed, ["reason": reason])
        let said = say(Announcement(Utterance(sentence, priority: .answer, contentKey: "session:startup-failed", earcon: .error)),
                       at: nowSeconds)
        enter(.stopped)
        // A script reading `--json` learns of the failure there too, not only from the exit status.
        emitEvent("could not start", announcements: said)
        await drainSpeech()
        flushReports(all: true)
        controls.close(saying: sentence)
        throw SessionStartupError(sentence, kind: kind)
    }

    /// The closing sentence is the last thing heard, and not held up by a backlog: the sentence
    /// being said ends, what still waits is dropped (it described a scene guidance has left).
    private func finish() async {
        feed.stopLive()
        feed.stopReadingAhead()
        feedback.queue.setContinuousTone(pitchHz: nil)
        if state != .stopped { enter(.stopped) }
        if let closing = closingSentence {
            // The end of the input lets a requested answer be heard whole; "exit" and a fault do
            // not wait for it (exit ends within a second, whatever was queued).
            if await settleSpeech(keepingAnswers: ending == .inputEnded) {
                say(Utterance(sentences.answerCut, priority: .status, contentKey: "session:answer-cut"))
            }
            say(closing.utterance)
            emitEvent(closing.event)
        }
        await drainSpeech()
        flushReports(all: true)
        controls.close(saying: closingSentence?.utterance.text ?? sentences.goodbye)
    }

    /// Lets everything queued be heard: rendered to the end offline, played out live.
    func drainSpeech() async {
        switch configuration.clock {
        case .input(let audio, _):
            do { try feedback.queue.renderUntilIdle(to: audio, blockFrames: 1024) } catch {
                feedback.alert(userMessage(for: error))
            }
            renderedAudioFrames = Int((feedback.queue.audioTimeSeconds * feedback.queue.sampleRateHz).rounded())
        case .realTime:
            // "Exit" is heard in full ("Goodbye." is short) but never waits on a backlog.
            let deadline = wallClock.seconds + (ending == .userQuit ? 1 : 30)
            while !feedback.queue.hasNothingToSay && wallClock.seconds < deadline {
                await wallClock.rest(seconds: 0.01)
            }
        }
        collectPlayback()
    }

    /// Opens the input (again), wrapped so unreadable frames are skipped.
    func openInput() throws {
        let width = pacing.batterySaving ? feed.lastFrameWidthPixels.flatMap { pacing.maximumWidthPixels(sourceWidthPixels: $0) } : nil
        try feed.open(input, maximumWidthPixels: width, atSeconds: nowSeconds)
        schedule.restart()
    }

    // MARK: Clock

    /// The session clock: input time offline, seconds since start live.
    var nowSeconds: Double {
        // Pictures rendered offline: time is the speech track's (each picture lasts as long as its description).
        if configuration.isOffline && picturesAsScenes { return Double(renderedAudioFrames) / feedback.queue.sampleRateHz }
        if configuration.isOffline { return feed.offlinePacer?.nowSeconds ?? 0 }
        return wallClock.seconds
    }

    func enter(_ newState: SessionState) {
        guard newState != state else { return }
        state = newState
        onEvent(.stateChanged(newState, timeSeconds: nowSeconds))
        publishSnapshot()
    }

    func publishSnapshot() {
        var snapshot = SessionSnapshot()
        snapshot.state = state
        snapshot.modeName = policy.mode.name
        snapshot.isPaused = paused
        if case .find(let target) = policy.mode { snapshot.findTarget = target.spokenName }
        snapshot.batterySaving = pacing.batterySaving
        snapshot.timeSeconds = nowSeconds
        snapshot.framesAnalysed = framesAnalysed
        controls.publish(snapshot)
    }

    /// Whether the mode analyses every frame, or only frames the user asked about.
    var analysesContinuously: Bool {
        switch policy.mode {
        case .continuous, .navigate, .find, .light: return true
        case .onDemand, .explore: return false
        }
    }

    var wantsFrameAnalysed: Bool {
        guard state != .afterUse, ending == nil else { return false }
        if requestPending || !pendingQuestions.isEmpty || (readingShortText && !paused) { return true }
        return !paused && analysesContinuously
    }
}

