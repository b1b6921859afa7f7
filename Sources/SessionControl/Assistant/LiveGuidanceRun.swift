import AssistCore
import Commands
import Foundation
import Guidance
import LiveGuidance
import Media
import Perception
import PictureAnswers
import Speech
import Storage
import ServiceLifecycle
import Synchronization

/// A live input guided from start to end, as `assist see VIDEO|camera|stream|folder` runs it: the
/// model found and loaded, the stored settings resolved under the choices given, the speech
/// route (device, file or silent) made, the session run with its commands (the control socket,
/// the console, spoken commands and media keys) and its history, and the transcript written.
///
/// What is heard is printed as it is heard (`HeardLinePrinter`). A start-up failure is said
/// through whatever output exists and thrown as a `LiveRunError` that says its kind.
public struct LiveGuidanceRun: Sendable {
    public var input: VideoInput
    public var detector: DetectorChoice
    public var depth: DepthModelChoice
    public var camera: CameraChoice
    public var description: DescriptionChoice

    /// Render the speech into this WAV (offline, on the input's clock) instead of playing it.
    public var speakTo: String?
    public var quiet = false
    public var audioDevice: String?
    public var voice = SpeechVoiceSettings()
    /// The same sound in both ears.
    public var mono = false

    /// `--mode`; nil: the stored mode, else continuous.
    public var mode: GuidanceMode?
    /// `--find`: only this category.
    public var find: String?
    public var transcriptPath: String?
    public var scheduledLines: [ScheduledLine] = []
    public var intervalSeconds: Double?
    public var batterySaver = false
    /// Which frames are analysed (`--analyse-every-frame` turns the adaptive schedule off).
    public var analysisSchedule = AnalysisSchedule.Policy.adaptive
    public var watchdogSeconds = 4.0
    /// 0: never give camera and model back.
    public var afterUseMinutes = 5.0
    public var frameCostSeconds: Double?
    /// `--read-ahead` / `--no-read-ahead` (`SessionConfiguration.readsFrameAhead`).
    public var readsFrameAhead = SessionConfiguration.readsFrameAheadByDefault
    /// JSON Lines, one object per analysed frame, instead of the heard lines.
    public var json = false
    /// Record what is announced in the detection history and the usage statistics.
    public var keepsHistory = true
    public var voiceCommands = VoiceCommandSources()
    /// Every event of the session as it happens, for an embedder (the web app's Live page hears
    /// what is said through it), besides the printed lines.
    public var onEvent: (@Sendable (SessionEvent) -> Void)?

    public init(input: VideoInput, detector: DetectorChoice = DetectorChoice(), depth: DepthModelChoice = DepthModelChoice(),
                camera: CameraChoice = CameraChoice(), description: DescriptionChoice = DescriptionChoice()) {
        self.input = input
        self.detector = detector
        self.depth = depth
        self.camera = camera
        self.description = description
    }

    /// Where the speech goes: a file, the sound card, or a paced nothing (`--quiet`, or `--json`
    /// without a device named).
    public var speechDestination: SessionSpeechRoute.Destination {
        speakTo.map { .file(URL(fileURLWithPath: $0)) }
            ?? (quiet || (json && audioDevice == nil) ? .silent : .device(name: audioDevice))
    }

    /// Runs to the end on its own, as `assist see` and `assist console` do; returns how the
    /// session ended and whether the transcript asked for was saved. Ctrl-C and SIGTERM end it as
    /// "exit" does (it says goodbye, the transcript is written, the control socket removed): the
    /// one `VisionAssistant` runs in a `ServiceGroup` that takes those signals. An embedder that
    /// owns the process's signals runs a `VisionAssistant` in its own group instead.
    public func run() async throws(LiveRunError) -> LiveRunResult {
        let assistant = VisionAssistant(self)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: assistant, successTerminationBehavior: .gracefullyShutdownGroup)],
            gracefulShutdownSignals: [.sigint, .sigterm], logger: VisionAssistant.logger))
        do { try await group.run() } catch {
            throw .cannotStart(reason: userMessage(for: error))
        }
        return try assistant.result.get()
    }

    /// The run itself: `ender` ends the session as "exit" does when asked (the group shutting
    /// down), also when asked before the session existed.
    func run(endedBy ender: SessionEnder) async throws(LiveRunError) -> LiveRunResult {
        let warn: @Sendable (String) -> Void = { UserData.warn($0) }
        // Before any model loads: buffers freed by the detector's and the voice's runs go back to
        // the system instead of staying in the heaps (BENCHMARKS.md, "Issue 37 (twenty-third session)").
        FreedMemory.mapLargeBlocksSeparately()
        let wording = description
        // A model that cannot be loaded is said through the speech output like any start-up
        // failure (the rendered WAV and transcript included), so the output is made first.
        let models: VisionModels?
        let modelFailure: (any Error)?
        // The commands' sentence model loads beside the detector (it needs nothing from it).
        let sentenceModel = SentenceModelLoading()
        do {
            models = try VisionModels(detector: detector, depth: depth, warn: warn)
            modelFailure = nil
        } catch {
            models = nil
            modelFailure = error
        }
        let classNames = models?.classNames ?? []
        let userData = UserData.open(knownCategories: classNames)
        let stored = userData?.currentSettings()
        let changed = (try? userData?.settings.changedValues()) ?? [:]

        let speechOutput: SessionSpeechRoute
        do {
            speechOutput = try SessionSpeechRoute(speechDestination, voice: voice,
                                                  spatialAudio: (stored?.feedback.spatialAudio ?? true) && !mono,
                                                  frameCostSeconds: frameCostSeconds, warn: warn)
        } catch {
            let failure = modelFailure.map { userMessage(for: $0) + " " } ?? ""
            throw .noSpeech(reason: failure + userMessage(for: error))
        }
        defer { speechOutput.close() }

        let requirements: AnalyzerRequirements
        let policy: GuidancePolicy
        var configuration: SessionConfiguration
        do {
            let stages = try wording.stages(from: stored, depthModel: depth.modelPath != nil, camera: camera)
            requirements = stages.analyzer
            let corridor = WalkingCorridor(camera: stages.analyzer.camera)
            let mode = models == nil ? .continuous : try initialMode(stored: stored, classNames: classNames, describer: stages.describer)
            policy = GuidancePolicy(mode: mode, settings: stages.guidance, describer: stages.describer)
            let storedInterval = changed["scanning.intervalSeconds"] != nil ? stored?.scanning.intervalSeconds : nil
            configuration = SessionConfiguration(input: FrameInput.video(input), clock: speechOutput.clock,
                                                 intervalSeconds: intervalSeconds ?? storedInterval,
                                                 batterySaver: batterySaver || (stored?.batterySaver ?? false),
                                                 battery: speakTo != nil ? nil : BatteryMonitor())
            configuration.watchdogSeconds = watchdogSeconds
            configuration.analysisSchedule = analysisSchedule
            configuration.readsFrameAhead = readsFrameAhead
            configuration.questionWatchdogSeconds = max(configuration.questionWatchdogSeconds, watchdogSeconds)
            configuration.afterUseSeconds = afterUseMinutes > 0 ? afterUseMinutes * 60 : nil
            configuration.scheduledLines = scheduledLines
            configuration.corridor = corridor
            configuration.classNames = models?.classNames
            // "Read the text", "what colour is this", …: Tesseract and the face model load at the first question.
            configuration.pictureQuestions = try PictureAnswers(wordsPerMinute: voice.wordsPerMinute)
        } catch {
            throw .cannotStart(reason: userMessage(for: error))
        }
        let sentences: SessionSentences
        do { sentences = try SessionSentences.bundled(language: wording.language) } catch {
            throw .cannotStart(reason: userMessage(for: error))
        }

        let printer = HeardLinePrinter(json: json, plain: SessionAdapters.readsConsole)
        // The overlap threshold and the camera come with each request: both follow the settings.
        let supply = AnalyzerSupply(make: { wanted in
            guard let models else { throw modelFailure ?? SessionStartupError("The model could not be loaded.", kind: .model) }
            return try models.analyzer(for: wanted, language: wording.language)
        }, release: { models?.release() })
        let usage = keepsHistory ? try? userData?.usage.start(mode: policy.mode.name) : nil
        defer { if let usage { try? userData?.usage.finish(session: usage) } }
        let recorder = keepsHistory ? userData.map {
            LiveHistoryRecorder(history: $0.history, usage: $0.usage, usageSession: usage, warn: warn)
        } : nil
        let session = GuidanceSession(configuration: configuration, analyzers: supply, requirements: requirements,
                                      policy: policy, feedback: speechOutput.feedback, sentences: sentences,
                                      onEvent: { [onEvent] event in
                                          printer.print(event)
                                          recorder?.note(event)
                                          onEvent?(event)
                                      })
        defer { recorder?.finish(framesAnalysed: session.framesAnalysed) }
        let controls = session.controls
        // One update path: settings a command changed are applied at once (at its --at moment
        // offline); the store's change notification that follows finds them applied already.
        let follower = SessionSettingsFollower(stored: stored, voice: voice, wording: wording,
                                               depthModel: depth.modelPath != nil, camera: camera, mono: mono, controls: controls)
        let adapters = SessionAdapters.make(session: controls, classNames: classNames, userData: userData,
                                            voice: voiceCommands, rendering: speakTo != nil ? session : nil, json: json,
                                            sentenceModel: sentenceModel, settings: follower)
        try Self.checkScheduledLines(configuration.scheduledLines, controller: adapters.controller)
        session.carryOutLine = { [controller = adapters.controller] line in _ = controller?.handle(line) }

        let ending: SessionEnding
        do {
            ending = try await Self.run(session, beside: adapters.adapters, endedBy: ender)
        } catch {
            writeTranscript(session)
            throw .sessionNotStarted(error)
        }
        let transcriptSaved = writeTranscript(session)
        if case .streamStopped(let reason) = ending, reason != sentences.streamStopped { warn(reason) }
        return LiveRunResult(ending: ending, transcriptSaved: transcriptSaved)
    }

    /// Every timed line (`--at`) must be a command acted on as typed — understood the way a typed line in
    /// the session is (patterns, then meaning), so what works at the keyboard works here: refused
    /// at start, not at its moment. Nobody can answer a question in a render, so a line that would
    /// only be asked about is refused with the question.
    static func checkScheduledLines(_ lines: [ScheduledLine], controller: CommandController?) throws(LiveRunError) {
        guard !lines.isEmpty else { return }
        guard let controller else { throw .timedCommandsUnavailable }
        for line in lines {
            switch controller.understanding.decide(line.text, channel: .typed) {
            case .act: continue
            case .confirm(_, let pending):
                throw .timedCommandAsks(line: line.text, meant: controller.language.spokenPhrase(for: pending))
            case .refuse(let sentence):
                throw .timedCommandRefused(line: line.text, reason: sentence)
            }
        }
    }

    /// --find (a category the model cannot detect is refused with the closest it can), --mode, the stored mode.
    private func initialMode(stored: Storage.Settings?, classNames: [String], describer: SceneDescriber) throws -> GuidanceMode {
        if let find {
            return .find(try FindTarget.resolve(name: find, classNames: classNames, phrasebook: describer.phrasebook))
        }
        if let mode { return mode }
        return stored.flatMap { GuidanceMode(starting: $0.scanning.mode) } ?? .continuous
    }

    /// Writes the transcript (mode 0600: it records what was around the user); false when it was not saved.
    @discardableResult
    private func writeTranscript(_ session: GuidanceSession) -> Bool {
        guard let transcriptPath else { return true }
        do {
            try PrivateFile.write(Data(SubRipTranscript.render(session.transcript()).utf8), to: URL(fileURLWithPath: transcriptPath))
            return true
        } catch {
            UserData.warn("The transcript was not saved: \(error.userMessage)")
            return false
        }
    }
}

/// Prints what is heard, once, as it starts being heard: "[12.4 s] sentence" lines (the time it
/// was heard), plain lines under `assist console` (a screen reader reads each as it comes), or
/// one JSON object per analysed frame.
public struct HeardLinePrinter: Sendable {
    public let json: Bool
    public var plain = false

    public init(json: Bool, plain: Bool = false) {
        self.json = json
        self.plain = plain
    }

    /// The line printed for an event; nil when nothing is printed for it.
    public func line(for event: SessionEvent) -> String? {
        switch event {
        case .said(let line) where !json:
            return plain ? line.printedText : String(format: "[%.1f s] ", line.timeSeconds) + line.printedText
        case .cycle(let report) where json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(report)).map { String(decoding: $0, as: UTF8.self) }
        default:
            return nil
        }
    }

    /// Straight to the file descriptor, unbuffered: a program reading the lines sees each at once.
    public func print(_ event: SessionEvent) {
        guard let line = line(for: event) else { return }
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

extension LiveGuidanceRun {
    /// The watchdog's range, for `assist see` and the session `assist serve --input` starts.
    public static func checkWatchdog(_ seconds: Double) throws(LiveRunError) {
        if !(seconds > 0 && seconds <= 600) { throw .outOfRange(.watchdogSeconds, value: seconds) }
    }

    /// The run's numbers, checked before anything starts (`LiveRunError.outOfRange`). Bounded
    /// above too: an interval of 1e19 s overflowed the session's sample count (issue 16).
    public func checkNumbers() throws(LiveRunError) {
        if let intervalSeconds, !(intervalSeconds > 0 && intervalSeconds <= 3600) {
            throw .outOfRange(.intervalSeconds, value: intervalSeconds)
        }
        try Self.checkWatchdog(watchdogSeconds)
        if !(afterUseMinutes >= 0 && afterUseMinutes <= 1440) {
            throw .outOfRange(.afterUseMinutes, value: afterUseMinutes)
        }
        if let frameCostSeconds, !(frameCostSeconds >= 0 && frameCostSeconds <= 60) {
            throw .outOfRange(.frameCostSeconds, value: frameCostSeconds)
        }
    }
}
