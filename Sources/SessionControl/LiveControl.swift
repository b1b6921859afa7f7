import AssistCore
import Commands
import Foundation
import LiveGuidance
import Storage
import VoiceInput

/// Typed and programmatic control of one live session: the control socket (`assist ctl`) and,
/// under `assist console`, commands read line by line from standard input, and spoken commands
/// and media keys. Started once a live session exists, stopped when it ends.
public final class LiveControl: Sendable {
    /// Set by `assist console` around the live run: read commands from standard input too.
    @TaskLocal public static var readsConsole = false

    public let controller: CommandController?
    private let server: ControlServer?
    /// The latest analysed frame for the web app's Live page.
    private let view: LiveViewServer?

    private init(controller: CommandController?, server: ControlServer?, view: LiveViewServer? = nil) {
        self.controller = controller
        self.server = server
        self.view = view
    }

    /// Never fails the session: without a command language or a socket the session still guides,
    /// and standard error says once what is missing.
    public static func start(session: SessionControls, classNames: [String], userData: UserData?,
                      voice: VoiceCommandSources? = nil, json: Bool = false, sentenceModel: SentenceModelLoading? = nil,
                      settingsChanged: (@Sendable (Settings) -> Void)? = nil) -> LiveControl {
        let storedLanguage = userData?.currentSettings()?.speech.language ?? "en"
        let language: CommandLanguage
        do {
            language = try (try? CommandLanguage(language: storedLanguage, categories: classNames))
                ?? CommandLanguage(language: "en", categories: classNames)
        } catch {
            UserData.warn("Commands are unavailable: \(userMessage(for: error))")
            return LiveControl(controller: nil, server: nil)
        }
        let storage = userData.map {
            CommandController.UserStorage(settings: $0.settings, history: $0.history, usage: $0.usage)
        }
        let controller = CommandController(language: language, session: session, storage: storage,
                                           settingsChanged: settingsChanged, sentenceModel: sentenceModel)
        var server: ControlServer?
        do {
            server = try ControlServer(path: ControlSocketLocation.socket().path) { controller.handleReportingOutcome($0) }
        } catch {
            UserData.warn("assist ctl cannot reach this session: \(userMessage(for: error))")
        }
        if readsConsole { ConsoleReader.start(controller: controller, session: session, printsReplies: json) }
        if let voice { VoiceControl.start(voice, controller: controller, session: session) }
        var view: LiveViewServer?
        // Only beside a control socket of its own: another session is running, and serves its view.
        if server != nil {
            do { view = try LiveViewServer(controls: session) } catch {
                UserData.warn("The web app cannot show this session's view: \(userMessage(for: error))")
            }
        }
        return LiveControl(controller: controller, server: server, view: view)
    }

    public func stop() {
        view?.stop()
        server?.stop()
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
        if let device = options.keys { MediaKeyControl.start(device: device, map: options.keyMap, session: session) }
        guard options.isWanted else { return }
        let thread = Thread {
            do {
                let trigger: ListeningTrigger = options.wakePhrase.map { .wakePhrase($0) } ?? .always
                let listener = try CommandListening.listener(language: controller.language, understanding: controller.understanding,
                                                             wakePhrase: options.wakePhrase, trigger: trigger, decoding: options.decoding)
                let source: SpeechAudioSource = try options.listenFile.map { try PacedRecording(url: URL(fileURLWithPath: $0)) }
                    ?? MicrophoneSpeechSource(deviceName: options.microphone)
                var notice = RefusalNotice()
                try listener.listen(to: source) { event in
                    switch event {
                    case .heard(let heard):
                        // Decided by the listening rule (what would hide things is asked about);
                        // a yes or no answers an open question.
                        _ = controller.handle(heard.transcripts.answerText, decided: heard.meaning)
                    case .unclear:
                        session.send(.say(CommandListener<CommandDecision>.pleaseRepeat))
                    case .tooNoisy(let utterance):
                        session.send(.say(notice.tooNoisy(atSeconds: utterance.endDetectedSeconds)))
                    case .awake:
                        break
                    }
                }
            } catch {
                let reason = userMessage(for: error)
                session.send(.say("Voice commands are unavailable. \(reason)"))
                FileHandle.standardError.write(Data("Voice commands are unavailable: \(reason)\n".utf8))
            }
        }
        thread.name = "assist voice commands"
        thread.start()
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
                          let sessionCommand = CommandController.sessionCommand(for: command) else { return }
                    session.send(sessionCommand)
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
