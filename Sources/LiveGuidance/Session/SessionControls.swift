import Foundation
import Guidance
import Speech
import Synchronization

/// How other parts of the program drive a running `GuidanceSession`: typed commands (from the
/// console, a socket, voice recognition, `--at`) and settings changes (from the settings store).
/// Every method may be called from any thread or task, at any time; the session picks them up
/// between frames, in the order they were sent.
///
///     let session = GuidanceSession(…)
///     let controls = session.controls
///     Task { for await line in console { controls.send(.scanNow) } }
///     Task { for await stored in settingsStore.changes() { controls.update(SessionSettingsUpdate(…)) } }
///     let outcome = await session.run()
public final class SessionControls: Sendable {
    enum Item: Sendable {
        /// `answer`, when given, is told what became of the command once the session handled it.
        case request(SessionRequest, answer: (@Sendable (SessionRequestOutcome) -> Void)?)
        case settings(SessionSettingsUpdate)
    }

    private struct State {
        var items: [Item] = []
        var snapshot = SessionSnapshot()
        /// Set when the session has finished: what it said last, the answer to anything sent after.
        var closedSaying: String?
        var analysedFrame: AnalysedFrame?
        var frameWatchers: [Int: AsyncStream<AnalysedFrame>.Continuation] = [:]
        var nextWatcher = 0
    }
    private let state = Mutex(State())
    /// What must not wait for the session's next turn (which can be a whole analysis away):
    /// silencing speech on "stop" and "exit". Set by the session.
    private let immediate = Mutex<(@Sendable (SessionRequest) -> Void)?>(nil)

    public init() {}

    /// Delivers `command` to the session; "stop" and "exit" silence the speech at once, on the
    /// caller's thread, and the rest of the command is carried out at the session's next turn.
    public func send(_ command: SessionRequest) {
        send(command, answer: nil)
    }

    /// Delivers `command` and tells `answer` what became of it once the session has handled it
    /// (on the session's thread): carried out, failed with the sentence the session said, or not
    /// carried out because the session ended first. For a caller that reports the outcome (the
    /// control socket), so "scan now" is never answered "Scanning." when the camera or the model
    /// could not be taken again.
    public func send(_ command: SessionRequest, answer: (@Sendable (SessionRequestOutcome) -> Void)?) {
        let closedSaying = state.withLock { state -> String? in
            if state.closedSaying == nil { state.items.append(.request(command, answer: answer)) }
            return state.closedSaying
        }
        if let closedSaying {
            answer?(.notCarriedOut(closedSaying))
            return
        }
        immediate.withLock { $0 }?(command)
    }

    func actImmediately(_ action: @escaping @Sendable (SessionRequest) -> Void) {
        immediate.withLock { $0 = action }
    }

    /// Applies new settings from the next frame on.
    public func update(_ settings: SessionSettingsUpdate) {
        state.withLock { $0.items.append(.settings(settings)) }
    }

    /// What the session is doing now (for a status line, a socket's "status" reply).
    public var snapshot: SessionSnapshot { state.withLock { $0.snapshot } }

    /// The frame analysed last and what was found in it; nil before the first analysis and once
    /// the session has ended.
    public var latestAnalysedFrame: AnalysedFrame? { state.withLock { $0.analysedFrame } }

    /// Each frame as it is analysed, newest only (a slow watcher skips frames, never holds up the
    /// session); the stream ends when the session ends.
    public func analysedFrames() -> AsyncStream<AnalysedFrame> {
        let (stream, continuation) = AsyncStream<AnalysedFrame>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state -> Int? in
            guard state.closedSaying == nil else { return nil }
            defer { state.nextWatcher += 1 }
            state.frameWatchers[state.nextWatcher] = continuation
            return state.nextWatcher
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.frameWatchers.removeValue(forKey: id) }
        }
        return stream
    }

    // MARK: The session's side

    func takeAll() -> [Item] {
        state.withLock { state in
            defer { state.items = [] }
            return state.items
        }
    }

    /// The session has finished: what still waits, and whatever is sent from now on, is answered
    /// "not carried out" with the session's last sentence.
    func close(saying sentence: String) {
        let (waiting, watchers) = state.withLock { state in
            defer {
                state.items = []
                state.closedSaying = sentence
                // The last picture goes with the session: nothing of the camera outlives it.
                state.analysedFrame = nil
                state.frameWatchers = [:]
            }
            return (state.items, Array(state.frameWatchers.values))
        }
        for case .request(_, let answer?) in waiting { answer(.notCarriedOut(sentence)) }
        for watcher in watchers { watcher.finish() }
    }

    var hasWaitingItems: Bool { state.withLock { !$0.items.isEmpty } }

    func publish(_ snapshot: SessionSnapshot) {
        state.withLock { $0.snapshot = snapshot }
    }

    func publish(_ frame: AnalysedFrame) {
        let watchers = state.withLock { state -> [AsyncStream<AnalysedFrame>.Continuation] in
            guard state.closedSaying == nil else { return [] }
            state.analysedFrame = frame
            return Array(state.frameWatchers.values)
        }
        for watcher in watchers { watcher.yield(frame) }
    }
}

/// What became of a command sent with `SessionControls.send(_:answer:)`.
public enum SessionRequestOutcome: Sendable, Equatable {
    /// Done; the session said its own answer (a scan's description, a mode's confirmation).
    case carriedOut
    /// Tried and failed; the session said this sentence (the model or camera could not be taken
    /// again, a thing to find that the detector does not know, a camera that could not be opened).
    case failed(String)
    /// The session ended (or was told to exit) before it; the sentence is what it said last.
    case notCarriedOut(String)
}

/// The session's state at a glance.
public struct SessionSnapshot: Sendable, Equatable {
    public var state: SessionState = .ready
    public var modeName: String = GuidanceMode.continuous.name
    public var isPaused = false
    /// In find mode, what is looked for as the user named it ("chair", "vehicles"); nil otherwise.
    public var findTarget: String?
    public var batterySaving = false
    /// Seconds on the session clock (input time offline).
    public var timeSeconds = 0.0
    public var framesAnalysed = 0
    public init() {}
}

/// Settings that changed while the session runs; nil fields stay as they are. The session applies
/// the whole update at its next turn, so the next frame is analysed and the next sentence worded,
/// spoken and felt with it.
public struct SessionSettingsUpdate: Sendable {
    /// Confidence threshold, wording, ignored categories: a new analyzer is made when they change.
    public var analyzer: AnalyzerRequirements?
    /// Hazards, proximity threshold, find timeout, explore count.
    public var guidance: GuidanceSettings?
    /// The describer the policies word their sentences with (follows `analyzer.description`).
    public var describer: SceneDescriber?
    public var batterySaver: Bool?
    /// The voice, rate, pitch and volume the next utterance is spoken with.
    public var voice: SpeechVoiceSettings?
    /// Vibration on or off, and its strength, from the next pattern on.
    public var haptics: HapticPreferences?
    /// Speech and tones placed toward the object (false: the same in both ears), from the next utterance on.
    public var directionalSound: Bool?
    /// Time between scans, from the next wait on.
    public var intervalSeconds: Double?
    /// The camera the settings name now, as the command line's "camera" would open it: a session
    /// reading a camera switches to it at once, as "switch camera" does. A session reading a file
    /// or a stream keeps its input (the setting is for the next start).
    public var camera: FrameInput?

    public init(analyzer: AnalyzerRequirements? = nil, guidance: GuidanceSettings? = nil,
                describer: SceneDescriber? = nil, batterySaver: Bool? = nil,
                voice: SpeechVoiceSettings? = nil, haptics: HapticPreferences? = nil,
                directionalSound: Bool? = nil, intervalSeconds: Double? = nil, camera: FrameInput? = nil) {
        self.analyzer = analyzer
        self.guidance = guidance
        self.describer = describer
        self.batterySaver = batterySaver
        self.voice = voice
        self.haptics = haptics
        self.directionalSound = directionalSound
        self.intervalSeconds = intervalSeconds
        self.camera = camera
    }
}

extension Feedback {
    /// The part of `update` that is heard and felt rather than analysed or worded.
    func apply(_ update: SessionSettingsUpdate) {
        if let directional = update.directionalSound { queue.placesByDirection = directional }
        guard update.voice != nil || update.haptics != nil else { return }
        apply(voice: update.voice, haptics: update.haptics)
    }
}

/// A typed line ("ignore people", "set confidence threshold to 0.9") to carry out at a moment of
/// the session's clock: whatever it sends through the controls is handled at that moment, so a
/// settings change applies from there on, also when rendering offline.
public struct ScheduledLine: Sendable, Equatable {
    public var atSeconds: Double
    public var text: String

    public init(atSeconds: Double, text: String) {
        self.atSeconds = atSeconds
        self.text = text
    }

    /// "SECONDS:COMMAND" as `--at` takes it (0 to 86400 s, a command after the colon); nil otherwise.
    public init?(option text: String) {
        guard let colon = text.firstIndex(of: ":"),
              let seconds = Double(text[..<colon].trimmingCharacters(in: .whitespaces)), seconds >= 0, seconds <= 86_400 else {
            return nil
        }
        let phrase = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !phrase.isEmpty else { return nil }
        self.init(atSeconds: seconds, text: phrase)
    }
}

/// What is due at a moment of the session's clock: a request, a line for the command language, or
/// another input's action (`GuidanceSession.schedule(atSeconds:_:)`).
struct ScheduledItem {
    enum Action {
        case request(SessionRequest)
        case line(String)
        /// Something that drives the session through `controls` (a spoken command heard in a recording).
        case call(() -> Void)
    }
    var atSeconds: Double
    var action: Action
}

/// A request to deliver at a moment of the session's clock (`--at 3:"scan now"`): input time
/// when rendering a file offline, seconds since start live.
public struct ScheduledRequest: Sendable, Equatable {
    public var atSeconds: Double
    public var request: SessionRequest

    public init(atSeconds: Double, request: SessionRequest) {
        self.atSeconds = atSeconds
        self.request = request
    }
}
