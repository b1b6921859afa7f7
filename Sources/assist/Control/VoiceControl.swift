import ArgumentParser
import AssistCore
import Commands
import Foundation
import SessionControl
import LiveGuidance
import VoiceInput

/// `assist see`/`assist console` options for spoken commands.
struct VoiceOptions: ParsableArguments, Sendable {
    @Flag(help: "Listen for spoken commands on the microphone (\"scan now\", \"find a chair\", …), recognised offline. For quiet places: speech less than 20 dB above the background is not acted on (you hear that it is too noisy); type commands with assist console or assist ctl there.")
    var listen = false

    @Option(help: ArgumentHelp("Take spoken commands from this recording instead of the microphone, played as if spoken live (for demonstrations and tests).", valueName: "audio"))
    var listenFile: String?

    @Option(help: "With --listen: act only on commands that start with this phrase, e.g. assistant.")
    var wakePhrase: String?

    @Option(help: "With --listen: part of the microphone's name (see assist devices).")
    var microphone: String?

    @Option(help: ArgumentHelp("Take commands from a headset's or keyboard's media keys on this evdev device (or a recording of its events): play/pause scans, next explores, previous repeats, holding play/pause silences.", valueName: "device"))
    var keys: String?

    @Option(help: ArgumentHelp("With --keys: what each key does, e.g. \"playPause=scanNow, next=exploreScene, previous=repeatLast, long playPause=stopTalking\".", valueName: "mapping"))
    var keyMap: String?

    var isWanted: Bool { listen || listenFile != nil }

    var mediaKeyMap: MediaKeyMap { (try? keyMap.map { try MediaKeyMap(setting: $0) }) ?? .standard }

    func validate() throws {
        if listen && listenFile != nil { throw ValidationError("Use either --listen (the microphone) or --listen-file, not both.") }
        if let keyMap { do { _ = try MediaKeyMap(setting: keyMap) } catch { throw ValidationError(error.userMessage) } }
        if keyMap != nil && keys == nil { throw ValidationError("--key-map goes with --keys.") }
        if !isWanted && (wakePhrase != nil || microphone != nil) {
            throw ValidationError("--wake-phrase and --microphone go with --listen.")
        }
    }
}

/// Spoken commands for a live session: the microphone (or a recording standing in for it) through
/// the recogniser; each command heard goes to the same controller as typed and sent ones, so it is
/// carried out and confirmed aloud the same way. Never silent: when listening cannot start, the
/// session says why and how to give commands instead.
enum VoiceControl {
    static func start(_ options: VoiceOptions, controller: CommandController, session: SessionControls) {
        if let device = options.keys { MediaKeyControl.start(device: device, map: options.mediaKeyMap, session: session) }
        guard options.isWanted else { return }
        let thread = Thread {
            do {
                let language = controller.language
                let vocabulary = VoiceCommandVocabulary(language: language, wakePhrase: options.wakePhrase)
                let recognizer = try CommandRecognizer(grammar: vocabulary.grammar, tuning: DecoderTuning(), logFile: nil)
                let trigger: ListeningTrigger = options.wakePhrase.map { .wakePhrase($0) } ?? .always
                let listener = CommandListener<Interpretation>(recognizer: recognizer, trigger: trigger,
                                                               understand: { language.interpret($0) })
                let source: SpeechAudioSource = try options.listenFile.map { try PacedRecording(url: URL(fileURLWithPath: $0)) }
                    ?? MicrophoneSpeechSource(deviceName: options.microphone)
                var notice = RefusalNotice()
                try listener.listen(to: source) { event in
                    switch event {
                    case .heard(let heard):
                        // The grammar decoder has said wrong commands at confidence 1.00, so no
                        // recognition counts as certain: what would hide things is asked about.
                        _ = controller.handle(heard.text, channel: .spoken(certain: false))
                    case .unclear:
                        session.send(.say(CommandListener<Interpretation>.pleaseRepeat))
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
