import ArgumentParser
import AssistCore
import Foundation
import SessionControl
import Guidance
import LiveGuidance
import Media
import Perception
import PictureAnswers
import Speech
import Storage
import Synchronization

/// `assist see` on a live input: wires the options, the stored settings, the model, the speech
/// and the input into a `GuidanceSession`, prints what it says, and maps its end to the exit status.
extension See {
    func runLive(_ videoInput: VideoInput) async throws {
        try live.check()
        // A model that cannot be loaded is said through the speech output like any start-up
        // failure (the rendered WAV and transcript included), so the output is made first.
        let models: LiveModels?
        let modelFailure: (any Error)?
        do {
            models = try LiveModels(detector: detector, depth: depth)
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
            let destination: SessionSpeechRoute.Destination = speech.speakTo.map { .file(URL(fileURLWithPath: $0)) }
                ?? (speech.quiet || (json && speech.audioDevice == nil) ? .silent : .device(name: speech.audioDevice))
            speechOutput = try SessionSpeechRoute(destination, voice: speech.voiceSettings,
                                                  spatialAudio: (stored?.feedback.spatialAudio ?? true) && !speech.mono,
                                                  frameCostSeconds: live.frameCost, warn: { UserData.warn($0) })
        } catch {
            let failure = modelFailure.map { userMessage(for: $0) + " " } ?? ""
            throw CommandFailure(failure + userMessage(for: error), exitCode: SessionStartupError.Kind.audio.exitStatus)
        }
        defer { speechOutput.close() }

        let requirements: AnalyzerRequirements
        let policy: GuidancePolicy
        let corridor: WalkingCorridor
        var configuration: SessionConfiguration
        do {
            let description = try wording.settings(stored: stored)
            requirements = AnalyzerRequirements(description: description,
                                                ignoredCategories: Set(stored?.detection.ignoredCategories ?? []),
                                                depthModel: depth.depthModel != nil)
            corridor = WalkingCorridor(camera: try camera.settings(storedFieldOfViewDegrees: stored?.camera.fieldOfViewDegrees))
            let describer = try SceneDescriber(language: wording.language, settings: description)
            let mode = models == nil ? .continuous : try initialMode(stored: stored, classNames: classNames, describer: describer)
            policy = GuidancePolicy(mode: mode,
                                    settings: Self.guidanceSettings(stored), describer: describer)
            let offline = speech.speakTo != nil
            let storedInterval = changed["scanning.intervalSeconds"] != nil ? stored?.scanning.intervalSeconds : nil
            configuration = SessionConfiguration(input: FrameInput.video(videoInput), clock: speechOutput.clock,
                                                 intervalSeconds: live.interval ?? storedInterval,
                                                 batterySaver: live.batterySaver || (stored?.batterySaver ?? false),
                                                 battery: offline ? nil : BatteryMonitor())
            configuration.watchdogSeconds = live.watchdog
            configuration.questionWatchdogSeconds = max(configuration.questionWatchdogSeconds, live.watchdog)
            configuration.afterUseSeconds = live.afterUse > 0 ? live.afterUse * 60 : nil
            configuration.scheduledLines = try live.scheduledLines()
            configuration.corridor = corridor
            configuration.classNames = models?.classNames
            // "Read the text", "what colour is this", …: Tesseract and the cascades load at the first question.
            configuration.pictureQuestions = try PictureAnswers(wordsPerMinute: speech.voiceSettings.wordsPerMinute)
        } catch {
            throw CommandFailure(userMessage(for: error), exitCode: 2)
        }
        let sentences: SessionSentences
        do { sentences = try SessionSentences.bundled(language: wording.language) } catch {
            throw CommandFailure(userMessage(for: error), exitCode: 2)
        }

        let printer = LivePrinter(json: json, plain: LiveControl.readsConsole)
        let locatorCamera = try? camera.settings(storedFieldOfViewDegrees: stored?.camera.fieldOfViewDegrees)
        let wordingOptions = wording
        let supply = AnalyzerSupply(make: { wanted in
            guard let models else { throw modelFailure ?? SessionStartupError("The model could not be loaded.", kind: .model) }
            return try models.analyzer(for: wanted, camera: locatorCamera ?? .chestWorn, language: wordingOptions.language,
                                       iouThreshold: wordingOptions.iouThreshold(stored: stored))
        }, release: { models?.release() })
        let usage = noHistory ? nil : try? userData?.usage.start(mode: "live \(policy.mode.name)")
        defer { if let usage { try? userData?.usage.finish(session: usage) } }
        let recorder = noHistory ? nil : userData.map {
            LiveHistoryRecorder(history: $0.history, usage: $0.usage, usageSession: usage, warn: { UserData.warn($0) })
        }
        let session = GuidanceSession(configuration: configuration, analyzers: supply, requirements: requirements,
                                      policy: policy, feedback: speechOutput.feedback, sentences: sentences,
                                      onEvent: { event in
                                          printer.print(event)
                                          recorder?.note(event)
                                      })
        defer { recorder?.finish(framesAnalysed: session.framesAnalysed) }
        let controls = session.controls
        let interrupts = Self.quitOnInterrupt(controls)
        defer { interrupts.forEach { $0.cancel() } }
        // Commands from assist ctl (the control socket) and, under assist console, standard input.
        // A settings change applies at once (at its --at moment offline), not when the store says so.
        let wordingForUpdates = wording, hasDepth = depth.depthModel != nil
        // One update path: settings a command changed are applied at once (at its --at moment
        // offline); the store's change notification that follows finds them applied already.
        let applied = AppliedSettings(stored)
        let control = LiveControl.start(session: controls, classNames: classNames, userData: userData,
                                        voice: voiceCommands, json: json) { settings in
            applied.value.withLock { $0 = settings }
            var update = Self.sessionUpdate(from: settings, wording: wordingForUpdates, depthModel: hasDepth)
            update.batterySaver = nil  // a session command of its own; --battery-saver keeps winning
            controls.update(update)
        }
        defer { control.stop() }
        try Self.checkScheduledLines(configuration.scheduledLines, control: control)
        session.carryOutLine = { line in _ = control.controller?.handle(line) }
        let hasDepthModel = depth.depthModel != nil
        let following = userData.map { data in
            let store = data.settings
            return Task { [wording] in
                // Only what changed after start: the options given on the command line keep winning.
                for await settings in store.changes() {
                    guard !Task.isCancelled else { break }
                    // Changed by another program (assist settings set): applied here, once.
                    guard let previous = applied.value.withLock({ current -> Storage.Settings?? in
                        guard settings != current else { return nil }
                        defer { current = settings }
                        return .some(current)
                    }) else { continue }
                    var update = Self.sessionUpdate(from: settings, wording: wording, depthModel: hasDepthModel)
                    if settings.batterySaver == previous?.batterySaver { update.batterySaver = nil }
                    controls.update(update)
                }
            }
        }
        defer { following?.cancel() }

        let ending: SessionEnding
        do {
            ending = try await session.run()
        } catch {
            writeTranscript(session)
            throw CommandFailure(error.userMessage, exitCode: error.kind.exitStatus)
        }
        let transcriptSaved = writeTranscript(session)
        if case .streamStopped(let reason) = ending, reason != sentences.streamStopped { UserData.warn(reason) }
        if ending.exitStatus != 0 { throw ExitCode(ending.exitStatus) }
        // An output the user asked for that was not saved is a failure, not a success (issue 16).
        if !transcriptSaved { throw ExitCode(1) }
    }

    /// Every `--at` line must be a command the command language understands: refused at start, not at its moment.
    private static func checkScheduledLines(_ lines: [ScheduledLine], control: LiveControl) throws {
        guard !lines.isEmpty else { return }
        guard let language = control.controller?.language else {
            throw CommandFailure("--at cannot be used: the command language could not be loaded.", exitCode: 2)
        }
        for line in lines {
            switch language.interpret(line.text) {
            case .understood: continue
            case .notUnderstood:
                throw CommandFailure("--at: \"\(line.text)\" is not a command assist understands; try scan now, explore, are there any obstacles, find chair, navigation mode, ignore people, pause, resume or exit.", exitCode: 64)
            case let other:
                throw CommandFailure("--at: \"\(line.text)\": \(language.reply(to: other))", exitCode: 64)
            }
        }
    }

    /// --find (a category the model cannot detect is refused with the closest it can), --mode, the stored mode.
    private func initialMode(stored: Storage.Settings?, classNames: [String], describer: SceneDescriber) throws -> GuidanceMode {
        if let find = live.find {
            return .find(try FindTarget.resolve(name: find, classNames: classNames, phrasebook: describer.phrasebook))
        }
        if let mode = try live.guidanceMode() { return mode }
        return stored?.scanning.mode.guidanceMode ?? .continuous
    }

    /// Writes --transcript (mode 0600: it records what was around the user); false when it was not saved.
    @discardableResult
    private func writeTranscript(_ session: GuidanceSession) -> Bool {
        guard let path = live.transcript else { return true }
        do {
            try PrivateFile.write(Data(SubRipTranscript.render(session.transcript()).utf8), to: URL(fileURLWithPath: path))
            return true
        } catch {
            UserData.warn("The transcript was not saved: \(error.userMessage)")
            return false
        }
    }

    static func guidanceSettings(_ stored: Storage.Settings?) -> GuidanceSettings {
        stored.map(GuidanceSettings.init(stored:)) ?? GuidanceSettings()
    }

    static func sessionUpdate(from stored: Storage.Settings, wording: WordingOptions, depthModel: Bool) -> SessionSettingsUpdate {
        guard let description = try? wording.settings(stored: stored) else {
            return SessionSettingsUpdate(guidance: guidanceSettings(stored), batterySaver: stored.batterySaver)
        }
        return SessionSettingsUpdate(
            analyzer: AnalyzerRequirements(description: description, ignoredCategories: Set(stored.detection.ignoredCategories),
                                           depthModel: depthModel),
            guidance: guidanceSettings(stored),
            describer: try? SceneDescriber(language: wording.language, settings: description),
            batterySaver: stored.batterySaver)
    }

    /// Ctrl-C and SIGTERM say goodbye and end the run cleanly (the transcript is written, the
    /// control socket removed), instead of killing it.
    static func quitOnInterrupt(_ controls: SessionControls) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { controls.send(.quit) }
            source.resume()
            return source
        }
    }
}

/// The stored settings a running session last applied, shared by the two ways a change arrives.
final class AppliedSettings: Sendable {
    let value: Mutex<Storage.Settings?>
    init(_ settings: Storage.Settings?) { value = Mutex(settings) }
}

/// The detector (and depth model), loaded once, given back in after-use and loaded again after.
final class LiveModels: @unchecked Sendable {
    private let detectorOptions: DetectorOptions
    private let depthOptions: DepthOptions
    private var core: InferenceCore?
    private var detector: ObjectDetector?
    private var depthEstimator: DepthEstimator?
    let classNames: [String]

    init(detector: DetectorOptions, depth: DepthOptions) throws {
        detectorOptions = detector
        depthOptions = depth
        let core = try InferenceCore()
        let loaded = try detector.makeDetector(core: core)
        self.core = core
        self.detector = loaded
        depthEstimator = try depth.makeEstimator(core: core, options: detector.inferenceOptions)
        classNames = loaded.classNames.names
    }

    func analyzer(for requirements: AnalyzerRequirements, camera: Perception.CameraSettings, language: String,
                  iouThreshold: Float) throws -> SceneAnalyzer {
        let core = try self.core ?? InferenceCore()
        self.core = core
        let detector = try self.detector ?? detectorOptions.makeDetector(core: core)
        self.detector = detector
        if requirements.depthModel && depthEstimator == nil {
            depthEstimator = try depthOptions.makeEstimator(core: core, options: detectorOptions.inferenceOptions)
        }
        return try SceneAnalyzer(detector: detector, depthEstimator: requirements.depthModel ? depthEstimator : nil,
                                 locator: try ObjectLocator(camera: camera),
                                 describer: SceneDescriber(language: language, settings: requirements.description),
                                 iouThreshold: iouThreshold, ignoredCategories: requirements.ignoredCategories)
    }

    func release() {
        detector = nil
        depthEstimator = nil
        core = nil
    }
}

/// Prints what is heard, once, as it starts being heard: "[12.4 s] sentence" lines (the time it
/// was heard), plain lines under `assist console` (a screen reader reads each as it comes), or
/// one JSON object per analysed frame.
struct LivePrinter {
    let json: Bool
    var plain = false

    func print(_ event: SessionEvent) {
        switch event {
        case .said(let line) where !json:
            write(plain ? line.printedText : String(format: "[%.1f s] ", line.timeSeconds) + line.printedText)
        case .cycle(let report) where json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            if let data = try? encoder.encode(report) {
                write(String(decoding: data, as: UTF8.self))
            }
        default:
            break
        }
    }

    /// Straight to the file descriptor, unbuffered: a program reading the lines sees each at once.
    private func write(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
