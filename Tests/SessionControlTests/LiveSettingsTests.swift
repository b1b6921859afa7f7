import AssistCore
import Commands
import Foundation
@testable import Guidance
@testable import LiveGuidance
import Media
import Perception
import SessionControl
import Speech
import Storage
import Testing
import TestSupport

/// Settings changed while a session runs take effect from the next sentence or frame, whichever
/// way they were stored: a typed or spoken command (here as `--at` lines, through the command
/// controller) or another program (`assist settings set`, the web form: the store's change
/// notification, here the same `follow` call the run makes for it). Each test checks what is heard
/// (the rendered audio) or done (the vibrations, the sentences), never only what is stored.
@Suite("Settings changed during a session take effect at once")
struct LiveSettingsTests {
    static let sentence = "There is a bench two meters ahead of you."

    /// A chair 1.5 m ahead from 1 to 3 s, then a bench as near from 8 to 10 s: each vibrates in navigation.
    static let twoObstacles: @Sendable (Double) -> [LocatedObject] = { seconds in
        switch seconds {
        case 1..<3: return [LiveSettingsSession.object("chair", meters: 1.5)]
        case 8..<10: return [LiveSettingsSession.object("bench", meters: 1.5)]
        default: return []
        }
    }

    @Test("nothing changed: the same sentence said twice sounds the same (what the other tests compare against)")
    func sameSentenceSameSound() async throws {
        let run = try LiveSettingsSession(seconds: 18)
        run.say(Self.sentence, atSeconds: [1, 14])
        try await run.run()
        let (before, after) = try run.twoRenderings(of: Self.sentence)
        // Within a thousandth: the same voice, the same length.
        #expect(abs(before.count - after.count) < before.count / 1000, "\(before.count) frames, then \(after.count)")
        #expect(abs(LiveSettingsSession.peak(after) - LiveSettingsSession.peak(before)) < 0.02 * LiveSettingsSession.peak(before))
        #expect(abs(LiveSettingsSession.pitchHz(after) - LiveSettingsSession.pitchHz(before)) < 5,
                "\(LiveSettingsSession.pitchHz(before)) Hz, then \(LiveSettingsSession.pitchHz(after)) Hz")
    }

    @Test("after 'speak faster' twice, the same sentence is said in clearly less time")
    func speakFaster() async throws {
        let run = try LiveSettingsSession(seconds: 18, lines: [ScheduledLine(atSeconds: 5, text: "speak faster"),
                                                                ScheduledLine(atSeconds: 6, text: "speak faster")])
        run.say(Self.sentence, atSeconds: [1, 14])
        try await run.run()
        let (before, after) = try run.twoRenderings(of: Self.sentence)
        #expect(Double(after.count) < Double(before.count) * 0.85, "\(before.count) frames before, \(after.count) after")
        #expect(run.saidTexts.contains("Faster: 225 words per minute."))
    }

    @Test("after 'volume down' three times, the same sentence is quieter")
    func volumeDown() async throws {
        let lines = (5...7).map { ScheduledLine(atSeconds: Double($0), text: "volume down") }
        let run = try LiveSettingsSession(seconds: 18, lines: lines)
        run.say(Self.sentence, atSeconds: [1, 14])
        try await run.run()
        let (before, after) = try run.twoRenderings(of: Self.sentence)
        // 70 % → 40 %: espeak-ng's amplitude follows its volume.
        #expect(LiveSettingsSession.peak(after) < LiveSettingsSession.peak(before) * 0.75)
        #expect(run.saidTexts.contains("Volume 40 percent."))
    }

    @Test("a pitch stored by another program is heard in the next sentence: a higher voice")
    func pitchFromStore() async throws {
        let run = try LiveSettingsSession(seconds: 18)
        run.say(Self.sentence, atSeconds: [1, 14])
        run.store(["speech.pitch": .number(95)], atSeconds: 5)
        try await run.run()
        let (before, after) = try run.twoRenderings(of: Self.sentence)
        let (low, high) = (LiveSettingsSession.pitchHz(before), LiveSettingsSession.pitchHz(after))
        #expect(high > low * 1.2, "\(low) Hz, then \(high) Hz")
    }

    @Test("after 'use the fast voice' the same sentence is said by the fast voice, not the one the session started with")
    func fastVoice() async throws {
        let run = try LiveSettingsSession(seconds: 18, voice: SpeechVoiceSettings(voice: "en-gb"),
                                          lines: [ScheduledLine(atSeconds: 5, text: "use the fast voice")])
        run.say(Self.sentence, atSeconds: [1, 14])
        try await run.run()
        let (before, after) = try run.twoRenderings(of: Self.sentence)
        // Each rendering lasts as long as its voice says the sentence, and the two voices take
        // clearly different times for it.
        let british = try LiveSettingsSession.plannedFrames(Self.sentence, voice: SpeechVoiceSettings(voice: "en-gb"))
        let fast = try LiveSettingsSession.plannedFrames(Self.sentence, voice: SpeechVoiceSettings(voice: VoiceCatalog.fastEspeakVoice))
        try #require(abs(british - fast) > british / 50, "\(british) and \(fast) frames")
        #expect(abs(before.count - british) < abs(before.count - fast), "\(before.count) frames: british \(british), fast \(fast)")
        #expect(abs(after.count - fast) < abs(after.count - british), "\(after.count) frames: british \(british), fast \(fast)")
        #expect(run.saidTexts.contains("The fast voice."))
    }

    @Test("'speak French' with no French sentences is refused in words, and the next sentence is still the English voice's")
    func language() async throws {
        let run = try LiveSettingsSession(seconds: 18, lines: [ScheduledLine(atSeconds: 5, text: "change language to french")])
        run.say(Self.sentence, atSeconds: [1, 14])
        try await run.run()
        let (before, after) = try run.twoRenderings(of: Self.sentence)
        let english = try LiveSettingsSession.plannedFrames(Self.sentence, voice: SpeechVoiceSettings(voice: "en-us"))
        let french = try LiveSettingsSession.plannedFrames(Self.sentence, voice: SpeechVoiceSettings(voice: "fr"))
        try #require(abs(english - french) > english / 100, "\(english) and \(french) frames")
        // A French voice reading English sentences is not French: nothing changes, and the user is told why.
        #expect(abs(before.count - english) < abs(before.count - french), "\(before.count) frames: english \(english), french \(french)")
        #expect(abs(after.count - english) < abs(after.count - french), "\(after.count) frames: english \(english), french \(french)")
        // Said in two parts (each under 3 s).
        #expect(run.saidTexts.joined(separator: " ").contains("I cannot speak French yet, only English, so the language stays as it is."))
        #expect(try run.store.current().speech.language == "en")
    }

    @Test("after 'turn off vibration' an obstacle vibrates no more, and is heard with its tone instead")
    func vibrationOff() async throws {
        let run = try LiveSettingsSession(mode: .navigate, seconds: 12, scene: Self.twoObstacles,
                                          lines: [ScheduledLine(atSeconds: 5, text: "turn off vibration")])
        var felt = -1
        run.session.schedule(atSeconds: 4.9) { felt = run.vibration.patterns.count }
        try await run.run()
        #expect(felt > 0, "the chair vibrated before")
        #expect(run.vibration.patterns.count == felt, "nothing vibrated after 'turn off vibration'")
        let bench = try #require(run.said.first { $0.timeSeconds > 5 && $0.utterance.text.lowercased().contains("bench") })
        #expect(bench.utterance.earcon != nil)
    }

    @Test("a vibration strength stored by another program makes the next obstacle's pulses weaker")
    func vibrationStrength() async throws {
        let run = try LiveSettingsSession(mode: .navigate, seconds: 12, scene: Self.twoObstacles)
        run.store(["feedback.hapticStrength": .number(0)], atSeconds: 5)
        var felt = -1
        run.session.schedule(atSeconds: 4.9) { felt = run.vibration.patterns.count }
        try await run.run()
        let patterns = run.vibration.patterns
        let before = try #require(patterns.prefix(felt).first)
        let after = try #require(patterns.dropFirst(felt).first)
        #expect(after.pulseCount == before.pulseCount)
        #expect(after.strength < before.strength * 0.5)
    }

    @Test("after the units are set to imperial, the next distance is said in feet")
    func unitsFromStore() async throws {
        let run = try LiveSettingsSession(seconds: 12, scene: { seconds in
            switch seconds {
            case 1..<3: return [LiveSettingsSession.object("chair", meters: 3)]
            case 7..<9: return [LiveSettingsSession.object("bench", meters: 3)]
            default: return []
            }
        })
        run.store(["units": .string("imperial")], atSeconds: 4)
        try await run.run()
        let chair = try #require(run.saidTexts.first { $0.lowercased().contains("chair") })
        let bench = try #require(run.saidTexts.first { $0.lowercased().contains("bench") })
        #expect(chair.contains("meter"))
        #expect(bench.contains("feet"))
    }

    @Test("after the confidence threshold is raised, an object less certain than it is no longer announced")
    func threshold() async throws {
        let scene: @Sendable (Double) -> [LocatedObject] = { seconds in
            (6..<9).contains(seconds) ? [LiveSettingsSession.object("chair", confidence: 0.7, meters: 2)] : []
        }
        let unchanged = try LiveSettingsSession(seconds: 10, scene: scene)
        try await unchanged.run()
        #expect(unchanged.saidTexts.contains { $0.lowercased().contains("chair") })

        let raised = try LiveSettingsSession(seconds: 10, scene: scene,
                                             lines: [ScheduledLine(atSeconds: 2, text: "set confidence threshold to 0.8")])
        try await raised.run()
        #expect(!raised.saidTexts.contains { $0.lowercased().contains("chair") })
        #expect(raised.saidTexts.contains("Confidence threshold set to 80 percent."))
    }

    @Test("a change stored by a command, then seen in the store's notification, reaches the session once; the run's own voice stays")
    func oneUpdatePerChange() throws {
        let controls = SessionControls()
        var stored = Storage.Settings.defaults
        let follower = SessionSettingsFollower(stored: stored, voice: SpeechVoiceSettings(voice: "en-gb", wordsPerMinute: 150),
                                               wording: DescriptionChoice(), depthModel: false, controls: controls)
        _ = controls.takeAll()  // the vibration as stored, sent at start
        stored.speech.rateWordsPerMinute = 200
        follower.follow(stored)
        follower.follow(stored)
        let items = controls.takeAll()
        #expect(items.count == 1)
        guard case .settings(let update)? = items.first else {
            Issue.record("no settings update")
            return
        }
        #expect(update.voice == SpeechVoiceSettings(voice: "en-gb", wordsPerMinute: 200))
        #expect(update.batterySaver == nil)
        #expect(update.haptics == nil)
    }

    @Test("after directional tones are turned off, a sentence about something on the left is heard the same in both ears")
    func directionalSoundOff() async throws {
        let run = try LiveSettingsSession(seconds: 12, scene: { seconds in
            switch seconds {
            case 1..<3: return [LiveSettingsSession.object("chair", meters: 2, degrees: -40)]
            case 7..<9: return [LiveSettingsSession.object("bench", meters: 2, degrees: -40)]
            default: return []
            }
        })
        run.store(["feedback.spatialAudio": .bool(false)], atSeconds: 4)
        try await run.run()
        let chair = try run.channels(ofFirstHeard: "chair"), bench = try run.channels(ofFirstHeard: "bench")
        #expect(LiveSettingsSession.largestDifference(chair) > 0.01, "the chair on the left was not placed to the left")
        #expect(LiveSettingsSession.largestDifference(bench) == 0, "the bench was still placed after directional tones were turned off")
    }

    @Test("after the time between scans is stored as 2 s, frames are analysed about 2 s apart from the next wait on")
    func scanInterval() async throws {
        let run = try LiveSettingsSession(seconds: 14)
        run.store(["scanning.intervalSeconds": .number(2)], atSeconds: 4)
        var analysed: [Int] = []
        for seconds in [4.0, 13.0] {
            run.session.schedule(atSeconds: seconds) { analysed.append(run.session.framesAnalysed) }
        }
        try await run.run()
        try #require(analysed.count == 2)
        // Ten frames a second at first, every one analysed; then one every 2 s: 4 or 5 in 9 s.
        #expect(analysed[0] >= 20, "\(analysed[0]) frames analysed in the first 4 s")
        #expect((3...6).contains(analysed[1] - analysed[0]), "\(analysed[1] - analysed[0]) frames analysed in 9 s at one every 2 s")
    }

    @Test("an overlap threshold stored while running reaches the analysis: it is rebuilt with the new threshold")
    func overlapThreshold() async throws {
        let run = try LiveSettingsSession(seconds: 8)
        run.store(["detection.iouThreshold": .number(0.7)], atSeconds: 3)
        try await run.run()
        #expect(run.analyzersMade.map(\.iouThreshold) == [Float(VisionLimits.defaultIoUThreshold), 0.7])
    }

    @Test("after the field of view is widened, the same place in the picture is said further to the side")
    func fieldOfView() async throws {
        // The same box, three quarters of the way to the picture's right edge, before and after.
        let box = BoundingBox(centerX: 14, centerY: 6, width: 2, height: 6)
        let run = try LiveSettingsSession(seconds: 12, detections: { seconds in
            switch seconds {
            case 1..<3: return [Detection(classIndex: 0, label: "chair", confidence: 0.9, box: box)]
            case 7..<9: return [Detection(classIndex: 0, label: "bench", confidence: 0.9, box: box)]
            default: return []
            }
        })
        run.store(["camera.fieldOfViewDegrees": .number(150)], atSeconds: 4)
        try await run.run()
        let angles = ["chair", "bench"].map { label in
            run.said.first { $0.utterance.text.lowercased().contains(label) }?.utterance.directionDegrees
        }
        let before = try #require(angles[0]), after = try #require(angles[1])
        #expect(before > 10 && after > before + 20, "said at \(before)° with a 70° view, then \(after)° with a 150° view")
    }

    @Test("a camera stored while running is sent to the session opened as `assist see camera` would; an unchanged one is not")
    func cameraFromStore() throws {
        var before = Storage.Settings()
        before.camera.device = "default"
        var after = before
        after.camera.device = "/dev/video3"
        let wording = DescriptionChoice()
        let voice = SpeechVoiceSettings(voice: "en-us")
        let changed = wording.sessionUpdate(from: after, previous: before, voice: voice, depthModel: false)
        #expect(changed.camera?.kind == .camera(devicePath: "/dev/video3"))
        #expect(changed.camera?.expectedFrameSize?.width == CameraFormat.standard.widthPixels)
        #expect(wording.sessionUpdate(from: after, previous: after, voice: voice, depthModel: false).camera == nil)
        // The first settings a run is given are the ones it started with: no camera to switch to.
        #expect(wording.sessionUpdate(from: after, previous: nil, voice: voice, depthModel: false).camera == nil)
    }

    @Test("a mode stored by another program is the session's mode from then on")
    func modeFromStore() async throws {
        let run = try LiveSettingsSession(seconds: 8)
        run.store(["scanning.mode": .string("navigate")], atSeconds: 3)
        var mode = ""
        run.session.schedule(atSeconds: 5) { mode = run.session.controls.snapshot.modeName }
        try await run.run()
        #expect(mode == GuidanceMode.navigate.name)
    }
}

/// One session run offline over scripted frames, with a real voice, a settings store in a
/// folder of its own, the command controller and the settings follower wired as `assist see`
/// wires them.
final class LiveSettingsSession {
    let store: SettingsStore
    let controller: CommandController
    let follower: SessionSettingsFollower
    let session: GuidanceSession
    let queue: UtteranceQueue
    let audio = RecordingAudioOutput()
    let vibration = RecordingVibration()
    private let heard = HeardLines()
    /// Everything queued to be said, in order.
    var said: [SpokenLine] { heard.lines }
    var saidTexts: [String] { said.map(\.utterance.text) }
    /// The controller's answer to each scheduled line, in order (what was said in answer, whole,
    /// where the queue says a long one in parts).
    var replies: [ControlReply] { answered.replies }
    private let answered = ControllerReplies()
    private let folder: URL

    /// Every analyzer the session asked for, in order: what it was built with.
    var analyzersMade: [AnalyzerRequirements] { made.requirements }
    private let made = MadeAnalyzers()

    /// `scene`: what the camera shows, located already; `detections`: boxes the analyzer locates
    /// with the camera of its requirements, as `SceneAnalyzer` does (used instead of `scene` when given).
    init(mode: GuidanceMode = .continuous, seconds: Double, voice: SpeechVoiceSettings = SpeechVoiceSettings(voice: "en-us"),
         scene: @escaping @Sendable (Double) -> [LocatedObject] = { _ in [] },
         detections: (@Sendable (Double) -> [Detection])? = nil, lines: [ScheduledLine] = []) throws {
        folder = try TemporaryFolder.make("live-settings")
        let database = try UserDatabase.open(StorageLocation(environment: ["XDG_DATA_HOME": folder.appendingPathComponent("data").path,
                                                                           "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
                                                                           "HOME": folder.path]))
        let validator = SettingsValidator(knownCategories: SettingsValidator.cocoCategories)
        store = SettingsStore(database: database, validator: validator)
        let stored = try store.current()

        queue = UtteranceQueue(voice: try VoiceCatalog.start(voice).voice)
        let wording = DescriptionChoice()
        let stages = try wording.stages(from: stored, depthModel: false)
        var configuration = SessionConfiguration(
            input: FrameInput(name: "scripted.mp4", kind: .recording) { _ in GreyFrames(count: Int(seconds * 10)) },
            clock: .input(audio: audio, frameCostSeconds: 0.1))
        configuration.analysisSchedule = .everyFrame
        configuration.watchdogSeconds = 600
        configuration.questionWatchdogSeconds = 600
        configuration.scheduledLines = lines
        session = GuidanceSession(
            configuration: configuration,
            analyzers: AnalyzerSupply(make: { [made] requirements in
                made.requirements.append(requirements)
                return ScriptedScene(requirements: requirements, scene: scene, detections: detections)
            }),
            requirements: stages.analyzer,
            policy: GuidancePolicy(mode: mode, settings: stages.guidance, describer: stages.describer),
            feedback: Feedback(queue: queue, vibration: vibration, report: { _ in }),
            sentences: try SessionSentences.bundled()) { [heard] event in
                if case .said(let line) = event { heard.lines.append(line) }
            }
        follower = SessionSettingsFollower(stored: stored, voice: voice, wording: wording, depthModel: false,
                                           controls: session.controls)
        let language = try CommandLanguage(language: "en", categories: validator.knownCategories)
        controller = CommandController(language: language, session: session.controls,
                                       storage: .init(settings: store, history: DetectionHistory(database: database),
                                                      usage: UsageStatistics(database: database)),
                                       settings: follower, understanding: CommandUnderstanding(language: language, classifier: nil))
        let controller = controller
        session.carryOutLine = { [answered] in answered.replies.append(controller.handle($0)) }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func say(_ sentence: String, atSeconds times: [Double]) {
        for time in times { session.schedule(atSeconds: time) { [session] in session.controls.send(.say(sentence)) } }
    }

    /// Another program stores `values` at `seconds` (`assist settings set`, the web form); the run
    /// hands the store's notification to the follower, as `LiveGuidanceRun` does.
    func store(_ values: [String: JSONValue], atSeconds seconds: Double) {
        session.schedule(atSeconds: seconds) { [store, follower] in
            for (key, value) in values { _ = try? store.set(key, value: value) }
            if let settings = try? store.current() { follower.follow(settings) }
        }
    }

    func run() async throws {
        let session = session
        _ = try await OwnThreads.run { try await session.run() }
    }

    /// The left channel of the first two times `text` was heard, each from its start to its last
    /// sound: the log knows the end only to the rendered block, the audio to the frame.
    func twoRenderings(of text: String) throws -> ([Float], [Float]) {
        let log = queue.playbackLog
        let records = log.filter { $0.utterance.text == text }
        try #require(records.count == 2, "heard \(records.count) times")
        let samples = audio.samples
        let first = audio.blocks.first?.startFrame ?? 0
        func left(_ record: PlaybackRecord) -> [Float] {
            let next = log.map(\.startFrame).filter { $0 > record.startFrame }.min() ?? Int.max
            let end = min(next, (record.endFrame ?? Int.max) + Int(queue.sampleRateHz), first + samples.count / 2) - first
            return Self.toLastSound(stride(from: record.startFrame - first, to: end, by: 1).map { samples[$0 * 2] })
        }
        return (left(records[0]), left(records[1]))
    }

    static func peak(_ samples: [Float]) -> Float { samples.map(abs).max() ?? 0 }

    static func toLastSound(_ samples: [Float]) -> [Float] {
        Array(samples[..<((samples.lastIndex { abs($0) >= 1e-4 } ?? -1) + 1)])
    }

    /// How many frames `sentence` said by `voice` lasts, rendered alone by a queue of its own and
    /// measured as a heard rendering is.
    static func plannedFrames(_ sentence: String, voice: SpeechVoiceSettings) throws -> Int {
        let queue = UtteranceQueue(voice: try VoiceCatalog.start(voice).voice)
        queue.enqueue(Utterance(sentence, priority: .status))
        var left: [Float] = []
        while !queue.isIdle {
            let block = queue.renderBlock(frameCount: 2205)
            left += stride(from: 0, to: block.samples.count, by: 2).map { block.samples[$0] }
        }
        return toLastSound(left).count
    }

    /// The voice's median fundamental frequency: over 40 ms windows loud enough to be voiced, the
    /// lag of highest autocorrelation between 2.5 and 12.5 ms (80–400 Hz).
    static func pitchHz(_ samples: [Float], sampleRateHz: Double = 22050) -> Double {
        let window = Int(0.04 * sampleRateHz), shortest = Int(sampleRateHz / 400), longest = Int(sampleRateHz / 80)
        let loud = peak(samples) * 0.3
        var estimates: [Double] = []
        var start = 0
        while start + window + longest < samples.count {
            let frame = samples[start..<(start + window + longest)]
            if frame.prefix(window).contains(where: { abs($0) > loud }) {
                let scores = (shortest...longest).map { lag in
                    (start..<(start + window)).reduce(Float(0)) { $0 + samples[$1] * samples[$1 + lag] }
                }
                // The shortest lag nearly as alike as the best: a period, not a multiple of it.
                let best = scores.max() ?? 0
                if best > 0, let index = scores.indices.first(where: { scores[$0] >= 0.85 * best }) {
                    estimates.append(sampleRateHz / Double(shortest + index))
                }
            }
            start += window
        }
        return estimates.sorted().dropFirst(estimates.count / 2).first ?? 0
    }

    /// The left and right channels of the first time a sentence containing `word` was heard, from
    /// its start to the next thing heard (or the end).
    func channels(ofFirstHeard word: String) throws -> (left: [Float], right: [Float]) {
        let log = queue.playbackLog
        let record = try #require(log.first { $0.utterance.text.lowercased().contains(word) }, "\(word) was never heard")
        let samples = audio.samples
        let first = audio.blocks.first?.startFrame ?? 0
        let next = log.map(\.startFrame).filter { $0 > record.startFrame }.min() ?? Int.max
        let end = min(next, first + samples.count / 2) - first
        let frames = (record.startFrame - first)..<end
        return (frames.map { samples[$0 * 2] }, frames.map { samples[$0 * 2 + 1] })
    }

    /// The largest difference between the two channels at any moment.
    static func largestDifference(_ channels: (left: [Float], right: [Float])) -> Float {
        zip(channels.left, channels.right).map { abs($0 - $1) }.max() ?? 0
    }

    /// A thing at `meters`, straight ahead or `degrees` to the right (negative: left).
    static func object(_ label: String, confidence: Float = 0.9, meters: Double, degrees: Double = 0) -> LocatedObject {
        LocatedObject(detection: Detection(classIndex: 0, label: label, confidence: confidence,
                                           box: BoundingBox(centerX: 8, centerY: 6, width: 4, height: 8)),
                      direction: Direction(angleDegrees: degrees, elevationDegrees: 0),
                      distance: DistanceEstimate(meters: meters, method: .objectSize, relativeError: 0.2))
    }
}

/// The controller's replies to the scheduled lines, kept on the session's task.
private final class ControllerReplies {
    var replies: [ControlReply] = []
}

/// The session's heard lines, kept on its own task.
private final class HeardLines {
    var lines: [SpokenLine] = []
}

/// The requirements of each analyzer made, kept on the session's task.
private final class MadeAnalyzers: @unchecked Sendable {
    var requirements: [AnalyzerRequirements] = []
}

/// Ten small grey frames a second.
private final class GreyFrames: FrameSource {
    let name = "scripted.mp4"
    let count: Int
    private var index = 0
    init(count: Int) { self.count = count }

    func nextFrame() throws -> Frame? {
        guard index < count else { return nil }
        defer { index += 1 }
        return Frame(image: RGBImage(width: 16, height: 12, filledWith: (128, 128, 128)),
                     timestampSeconds: Double(index) / 10, sourceName: name)
    }
}

/// What the scripted camera shows at each moment, found as a detector built with `requirements`
/// finds it: what is less certain than the confidence threshold is dropped, as `SceneAnalyzer`'s
/// detector drops it.
private final class ScriptedScene: SceneAnalyzing, @unchecked Sendable {
    let requirements: AnalyzerRequirements
    let scene: @Sendable (Double) -> [LocatedObject]
    let detections: (@Sendable (Double) -> [Detection])?
    let usesDepthModel = false

    init(requirements: AnalyzerRequirements, scene: @escaping @Sendable (Double) -> [LocatedObject],
         detections: (@Sendable (Double) -> [Detection])? = nil) {
        self.requirements = requirements
        self.scene = scene
        self.detections = detections
    }

    func analyze(_ frame: Frame) throws -> SceneReport {
        let shown = try detections.map { try ObjectLocator(camera: requirements.camera).locate($0(frame.timestampSeconds), in: frame) }
            ?? scene(frame.timestampSeconds)
        let objects = shown.filter {
            $0.detection.confidence >= requirements.description.minimumConfidence
                && !requirements.ignoredCategories.contains($0.detection.label)
        }
        return SceneReport(source: frame.sourceName, imageWidth: frame.image.width, imageHeight: frame.image.height,
                           quality: .ok, objects: objects, sentences: [], announced: [], timings: StageTimings(),
                           depthSource: "geometry")
    }

    func cancel() {}
}
