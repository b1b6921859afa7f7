import AssistCore
import Commands
import Foundation
import LiveGuidance
import ServiceLifecycle
import Storage
import Synchronization
import VoiceInput

/// The ways into a running session, each an adapter that only turns its input into requests:
/// the control socket (`assist ctl`, the web app's Live page), standard input under `assist
/// console`, spoken commands, media keys, the settings store (a change stored by another
/// program), and the web app's view of the newest analysed frame. The vision assistant
/// (`LiveGuidanceRun`) runs them as services beside its session, in one `ServiceGroup`, from the
/// session's start until it ends.
///
/// Never fails the session: without a command language or a socket the session still guides,
/// and standard error says once what is missing.
public struct SessionAdapters: Sendable {
    /// Set by `assist console` around the live run: read commands from standard input too.
    @TaskLocal public static var readsConsole = false

    /// What every adapter hands the user's command to: understood once, its requests sent to the
    /// session. nil when the command language could not be loaded.
    public let controller: CommandController?
    /// The adapters, run beside the session until it ends.
    let adapters: [SessionAdapter]

    /// `rendering`: the session of an offline render (`--speak-to`), whose input clock a
    /// `--listen-file` recording is heard on (`VoiceControl.schedule`, arranged here, before the
    /// session runs); nil live. `settings`: applies what a command changed at once, and follows
    /// `userData`'s store for what another program changed.
    public static func make(session: SessionControls, classNames: [String], userData: UserData?,
                            voice: VoiceCommandSources? = nil, rendering: GuidanceSession? = nil, json: Bool = false,
                            sentenceModel: SentenceModelLoading? = nil,
                            settings follower: SessionSettingsFollower? = nil) -> SessionAdapters {
        let storedSettings = follower.flatMap { follower in userData.map { SessionAdapter.storedSettings($0.settings, follower: follower) } }
        let storedLanguage = userData?.currentSettings()?.speech.language ?? Storage.Settings.defaults.speech.language
        let language: CommandLanguage
        do {
            let chosen = try SettingsStorageAccess.commandLanguage(stored: storedLanguage, categories: classNames)
            language = chosen.language
            if let note = chosen.note {
                UserData.warn(note)
                session.send(.say(note))
            }
        } catch {
            UserData.warn("Commands are unavailable: \(userMessage(for: error))")
            return SessionAdapters(controller: nil, adapters: storedSettings.map { [$0] } ?? [])
        }
        let storage = userData.map {
            CommandController.UserStorage(settings: $0.settings, history: $0.history, usage: $0.usage)
        }
        // In a render, a question asked by voice waits for its yes on the input's clock, as the
        // recording heard it, not on how long the machine took to render in between.
        let moment: RenderedMoment? = rendering != nil && voice?.listenFile != nil ? RenderedMoment() : nil
        let now: @Sendable () -> ContinuousClock.Instant
        if let moment { now = { moment.instant } } else { now = { .now } }
        let controller = CommandController(language: language, session: session, storage: storage,
                                           settings: follower, sentenceModel: sentenceModel, now: now)
        var services = [SessionAdapter.controlSocket(controller: controller, session: session)]
        if let storedSettings { services.append(storedSettings) }
        if readsConsole { services.append(SessionAdapter.console(controller: controller, session: session, printsReplies: json)) }
        if let keys = voice?.keys, let map = voice?.keyMap {
            services.append(SessionAdapter.mediaKeys(device: keys, map: map, session: session))
        }
        if let voice, let rendering, let moment, let recording = voice.listenFile {
            // Known ahead of time: each command is set at its moment on the input's clock before the session runs.
            VoiceControl.schedule(recording: recording, voice, controller: controller, on: rendering, moment: moment)
        } else if let voice, voice.isWanted {
            services.append(SessionAdapter.spokenCommands(voice, controller: controller, session: session))
        }
        return SessionAdapters(controller: controller, adapters: services)
    }
}

/// One adapter as a service: it starts taking its input on a thread or a server of its own
/// (nothing of it holds the cooperative pool, which the group's signal handling needs), and is
/// stopped when its group shuts down: the session ended, or the user pressed Ctrl-C.
struct SessionAdapter: Service {
    let name: String
    /// Starts the adapter; returns what stops it.
    let start: @Sendable () -> @Sendable () -> Void
    /// Told once the adapter has started: the session waits for it.
    var started: (@Sendable () -> Void)?

    init(name: String, start: @escaping @Sendable () -> @Sendable () -> Void) {
        self.name = name
        self.start = start
    }

    func run() async {
        let stop = start()
        defer { stop() }
        started?()
        try? await gracefulShutdown()
    }

    func announcingStart(to starts: AsyncStream<Void>.Continuation) -> SessionAdapter {
        var adapter = self
        adapter.started = { starts.yield() }
        return adapter
    }

    /// `assist ctl` and the web app's Live page, and beside it the web app's view of the newest frame.
    static func controlSocket(controller: CommandController, session: SessionControls) -> SessionAdapter {
        SessionAdapter(name: "control socket") {
            let server: ControlServer
            do {
                server = try ControlServer(path: ControlSocketLocation.socket().path) { controller.handleReportingOutcome($0) }
            } catch {
                UserData.warn("assist ctl cannot reach this session: \(userMessage(for: error))")
                return {}
            }
            // Only beside a control socket of its own: otherwise another session is running, and serves its view.
            var view: LiveViewServer?
            do { view = try LiveViewServer(controls: session) } catch {
                UserData.warn("The web app cannot show this session's view: \(userMessage(for: error))")
            }
            return { [view] in
                view?.stop()
                server.stop()
            }
        }
    }

    /// A setting stored by another program (`assist settings set`, the web form) is applied, once.
    static func storedSettings(_ store: SettingsStore, follower: SessionSettingsFollower) -> SessionAdapter {
        SessionAdapter(name: "stored settings") {
            let following = Task {
                for await settings in store.changes() {
                    guard !Task.isCancelled else { break }
                    follower.follow(settings)
                }
            }
            return { following.cancel() }
        }
    }

    /// `assist console`. Its thread stays blocked reading until the process ends: a read from
    /// standard input cannot be taken back, and what it reads after the session is answered
    /// "not carried out" by the closed controls.
    static func console(controller: CommandController, session: SessionControls, printsReplies: Bool) -> SessionAdapter {
        SessionAdapter(name: "console") {
            ConsoleReader.start(controller: controller, session: session, printsReplies: printsReplies)
            return {}
        }
    }

    /// `--keys`: a headset's or keyboard's media keys.
    static func mediaKeys(device: String, map: MediaKeyMap, session: SessionControls) -> SessionAdapter {
        SessionAdapter(name: "media keys") {
            MediaKeyControl.start(device: device, map: map, session: session)
            return {}
        }
    }

    /// `--listen`, `--listen-file` live: the microphone (or a recording standing in for it).
    static func spokenCommands(_ sources: VoiceCommandSources, controller: CommandController, session: SessionControls) -> SessionAdapter {
        SessionAdapter(name: "spoken commands") {
            VoiceControl.start(sources, controller: controller, session: session)
            return {}
        }
    }
}

/// `assist console`: one command per line from standard input. Each answer is printed once: as
/// the session prints what is heard, when it is heard (see `HeardLinePrinter`); only under `--json`,
/// where heard lines are not printed, is the reply printed here. The end of input ends the
/// session, as "exit".
enum ConsoleReader {
    static func start(controller: CommandController, session: SessionControls, printsReplies: Bool) {
        let thread = Thread {
            while let line = readLine() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty else { continue }
                let reply = controller.handle(trimmed)
                if printsReplies { FileHandle.standardOutput.write(Data((reply.reply + "\n").utf8)) }
            }
            session.send(.quit)
        }
        thread.name = "assist console input"
        thread.start()
    }
}

/// Where a live session takes spoken commands and key presses from (`--listen`, `--listen-file`,
/// `--wake-phrase`, `--microphone`, `--keys`, `--key-map`).
public struct VoiceCommandSources: Sendable {
    /// Listen on the microphone.
    public var listen: Bool
    /// A recording played as if spoken live, instead of the microphone.
    public var listenFile: String?
    /// Act only on commands that start with this phrase.
    public var wakePhrase: String?
    /// Part of the microphone's name.
    public var microphone: String?
    /// A headset's or keyboard's evdev device (or a recording of its events).
    public var keys: String?
    public var keyMap: MediaKeyMap
    /// How speech is decoded (`--decode`).
    public var decoding: ListeningDecoding

    public init(listen: Bool = false, listenFile: String? = nil, wakePhrase: String? = nil, microphone: String? = nil,
                keys: String? = nil, decoding: ListeningDecoding = .standard, keyMap: MediaKeyMap = .standard) {
        self.decoding = decoding
        self.listen = listen
        self.listenFile = listenFile
        self.wakePhrase = wakePhrase
        self.microphone = microphone
        self.keys = keys
        self.keyMap = keyMap
    }

    public var isWanted: Bool { listen || listenFile != nil }
}

/// Spoken commands for a live session: the microphone (or a recording standing in for it) through
/// the recogniser; each command heard goes to the same controller as typed and sent ones, so it is
/// carried out and confirmed aloud the same way. Never silent: when listening cannot start, the
/// session says why and how to give commands instead.
enum VoiceControl {
    static func start(_ options: VoiceCommandSources, controller: CommandController, session: SessionControls) {
        let thread = Thread {
            do {
                if let note = Self.preparingNote(controller.language) {
                    session.send(.say(note))
                    FileHandle.standardError.write(Data("\(note)\n".utf8))
                }
                let listener = try Self.listener(options, controller: controller)
                let source: SpeechAudioSource = try options.listenFile.map { try PacedRecording(url: URL(fileURLWithPath: $0)) }
                    ?? MicrophoneSpeechSource(deviceName: options.microphone)
                var reaction = SpokenCommandReaction(controller: controller, session: session)
                try listener.listen(to: source) { reaction.react(to: $0) }
            } catch let error as SpeechRecognitionError where error.isProcessEnding {
                // The process is exiting (the session is over): nothing to tell anyone.
            } catch {
                unavailable(error, session: session)
            }
        }
        thread.name = "assist voice commands"
        thread.start()
    }

    /// An offline render (`--speak-to`) with `--listen-file`: the recording is heard on the
    /// input's clock, its start at the input's start. It is recognised whole before the session
    /// runs, as fast as the machine allows, and what was heard is acted on at the moment the
    /// listener found the speech over (`endOfSpeechSeconds`, the recording's own time): the same
    /// render on an idle machine and a busy one, with no microphone and no waiting in real time.
    /// The recogniser's processing time is not counted (as for `--frame-cost`, a render does not
    /// depend on the machine).
    static func schedule(recording: String, _ options: VoiceCommandSources, controller: CommandController,
                         on session: GuidanceSession, moment: RenderedMoment) {
        do {
            // Printed only: a render's speech is the same whether or not this machine had the copies.
            if let note = Self.preparingNote(controller.language) { FileHandle.standardError.write(Data("\(note)\n".utf8)) }
            let listener = try Self.listener(options, controller: controller)
            var heard: [(seconds: Double, event: ListenerEvent<CommandDecision>)] = []
            try listener.listen(to: try AudioFileSpeechSource(url: URL(fileURLWithPath: recording))) { event in
                guard let seconds = event.heardAtSeconds else { return }
                heard.append((seconds, event))
            }
            // Called one after another on the session's task: one reaction, as one listener thread has live.
            var reaction = SpokenCommandReaction(controller: controller, session: session.controls)
            for (seconds, event) in heard {
                session.schedule(atSeconds: seconds) {
                    moment.move(toSeconds: seconds)
                    reaction.react(to: event)
                }
            }
        } catch {
            unavailable(error, session: session.controls)
        }
    }

    /// The sentence said before the recogniser's first start after installation (nil otherwise).
    static func preparingNote(_ language: CommandLanguage) -> String? {
        guard let files = try? SpeechModelFiles.installed(), files.needsPreparing else { return nil }
        return language.sentence(.preparingSpeechRecognition)
    }

    private static func listener(_ options: VoiceCommandSources, controller: CommandController) throws -> CommandListener<CommandDecision> {
        let trigger: ListeningTrigger = options.wakePhrase.map { .wakePhrase($0) } ?? .always
        return try CommandListening.listener(language: controller.language, understanding: controller.understanding,
                                             wakePhrase: options.wakePhrase, trigger: trigger, decoding: options.decoding)
    }

    private static func unavailable(_ error: any Error, session: SessionControls) {
        let reason = userMessage(for: error)
        session.send(.say("Voice commands are unavailable. \(reason)"))
        FileHandle.standardError.write(Data("Voice commands are unavailable: \(reason)\n".utf8))
    }
}

/// The moment of an offline render that the command controller is at, as an instant for its
/// questions' timeouts: set to each spoken command's time on the input's clock before it is handled.
final class RenderedMoment: Sendable {
    private let start = ContinuousClock.now
    private let seconds = Mutex(0.0)

    func move(toSeconds value: Double) { seconds.withLock { $0 = value } }
    var instant: ContinuousClock.Instant { start + .seconds(seconds.withLock { $0 }) }
}

/// What the session does with what the listener heard, live or in a render: a command goes to the
/// controller (decided by the listening rule: what would hide things is asked about; a yes or no
/// answers an open question), unclear speech is asked again, speech in noise is refused in words.
struct SpokenCommandReaction: Sendable {
    let controller: CommandController
    let session: SessionControls
    var notice = RefusalNotice()

    mutating func react(to event: ListenerEvent<CommandDecision>) {
        switch event {
        case .heard(let heard):
            _ = controller.handle(heard.transcripts.answerText, decided: heard.meaning)
        case .unclear:
            session.send(.say(CommandListener<CommandDecision>.pleaseRepeat))
        case .tooNoisy(let utterance):
            session.send(.say(notice.tooNoisy(atSeconds: utterance.endDetectedSeconds)))
        case .awake:
            break
        }
    }
}

extension ListenerEvent {
    /// When the listener had it, in seconds of the audio's own clock; nil for waking, which
    /// only changes what the listener acts on next.
    var heardAtSeconds: Double? {
        switch self {
        case .heard(let heard): heard.endOfSpeechSeconds
        case .unclear(let utterance), .tooNoisy(let utterance): utterance.endDetectedSeconds
        case .awake: nil
        }
    }
}

/// A recording given out in 20 ms chunks at the pace it was spoken, as a microphone would.
private final class PacedRecording: SpeechAudioSource {
    private let recording: AudioFileSpeechSource
    private let start = ContinuousClock.now
    private var given = 0

    init(url: URL) throws { recording = try AudioFileSpeechSource(url: url) }

    var isRecording: Bool { false }

    func nextChunk() throws -> [Int16]? {
        guard let chunk = try recording.nextChunk() else { return nil }
        given += chunk.count
        let due = start + .milliseconds(Int(Double(given) / RecognizerAudio.sampleRateHz * 1000))
        let wait = ContinuousClock.now.duration(to: due)
        if wait > .zero { Thread.sleep(forTimeInterval: Double(wait.components.attoseconds) / 1e18 + Double(wait.components.seconds)) }
        return chunk
    }

    func stop() { recording.stop() }
}

/// Headset or keyboard media keys for a live session (`--keys /dev/input/eventN`): each press
/// becomes the session command its mapping names. Never silent: a device that cannot be read is
/// said, with the other ways to give commands.
enum MediaKeyControl {
    static func start(device: String, map: MediaKeyMap, session: SessionControls) {
        let thread = Thread {
            do {
                try MediaKeyReader.read(path: device) { press in
                    guard let command = map.command(for: press),
                          let sessionRequest = CommandController.sessionRequest(for: command) else { return }
                    session.send(sessionRequest)
                }
            } catch {
                let reason = userMessage(for: error)
                session.send(.say("Media keys are unavailable. \(reason)"))
                FileHandle.standardError.write(Data("Media keys are unavailable: \(reason)\n".utf8))
            }
        }
        thread.name = "assist media keys"
        thread.start()
    }
}
