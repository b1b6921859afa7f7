import ArgumentParser
import AssistCore
import Commands
import Foundation
import Storage
import VoiceInput

struct Listen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Listens for spoken commands, from the microphone or a recording, and prints what was understood.",
        discussion: """
        Each command heard is printed with the words recognised, the command they mean, the \
        sentence that confirms it, the recogniser's confidence and the latency (the silence the \
        detector waits for to know the command is over, plus processing). Unclear speech prints \
        "Please repeat." Speech less than 20 dB above the background noise is not acted on: it \
        prints that it is too noisy (recognition is unreliable there; --json gives snr_db). \
        Recognition runs offline with pocketsphinx, listening only for the command language's \
        sentences.

        Examples:
          assist listen --file command.wav
          assist listen --wake-phrase assistant
          assist listen --push-to-talk --json
        """)

    @Option(help: ArgumentHelp("A recording to listen to instead of the microphone (WAV, FLAC, … any rate; converted to 16 kHz mono).", valueName: "audio"))
    var file: String?

    @Option(help: "Act only on commands that start with this phrase (or follow it alone within 5 seconds), e.g. assistant.")
    var wakePhrase: String?

    @Flag(help: "Listen only while talking: press Enter to start a command and Enter again to end it.")
    var pushToTalk = false

    @Option(help: "Part of the microphone's name (see assist devices); the default microphone otherwise.")
    var microphone: String?

    @Option(help: "Write pocketsphinx's own log to this file (it is silent otherwise).")
    var logFile: String?

    @Flag(help: "Print one JSON object per line for each event.")
    var json = false

    func validate() throws {
        if file != nil, pushToTalk { throw ValidationError("--push-to-talk needs the microphone; leave out --file.") }
        if file != nil, microphone != nil { throw ValidationError("--microphone and --file cannot be used together.") }
        if let wakePhrase, wakePhrase.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--wake-phrase needs words, such as assistant.")
        }
    }

    func run() throws {
        let language = try CommandLanguage(language: "en", categories: SettingsStorageAccess.validator().knownCategories)
        let vocabulary = VoiceCommandVocabulary(language: language, wakePhrase: wakePhrase)
        let tuning = DecoderTuning()
        let recognizer = try CommandRecognizer(grammar: vocabulary.grammar, tuning: tuning,
                                               logFile: logFile.map { URL(fileURLWithPath: $0) })
        if !recognizer.pronunciationCheck.missingWords.isEmpty {
            FileHandle.standardError.write(Data("Words that cannot be recognised (no pronunciation): \(recognizer.pronunciationCheck.missingWords.joined(separator: ", ")).\n".utf8))
        }
        let trigger: ListeningTrigger = pushToTalk ? .pushToTalk : wakePhrase.map { .wakePhrase($0) } ?? .always
        let listener = CommandListener<Interpretation>(recognizer: recognizer, trigger: trigger, tuning: tuning,
                                                       understand: { language.interpret($0) })
        let source: SpeechAudioSource
        if let file {
            source = try AudioFileSpeechSource(url: URL(fileURLWithPath: file))
        } else {
            source = try MicrophoneSpeechSource(deviceName: microphone)
            if !json {
                let how = pushToTalk ? "press Enter to talk and Enter again when done" : wakePhrase.map { "say “\($0)” and a command" } ?? "say a command"
                FileHandle.standardError.write(Data("Listening; \(how). Ctrl-C stops.\n".utf8))
            }
            if pushToTalk { PushToTalkKey.start(listener.talkButton) }
        }
        try listener.listen(to: source) { event in print(ListenOutput(event, language: language).line(json: json)) }
    }
}

/// Enter on standard input toggles the talk button (a thread of its own: reading blocks).
enum PushToTalkKey {
    static func start(_ button: TalkButton) {
        let thread = Thread {
            var pressed = false
            while readLine() != nil {
                pressed.toggle()
                button.set(pressed: pressed)
                FileHandle.standardError.write(Data((pressed ? "Talk now; Enter when done.\n" : "Stopped listening.\n").utf8))
            }
        }
        thread.start()
    }
}

/// One listener event as printed: a line of text, or a JSON object.
struct ListenOutput: Encodable {
    let event: String
    let text: String?
    let intent: String?
    let command: String?
    let reply: String
    let confidence: Double?
    let latencyMilliseconds: Double?
    /// Speech over background in dB, rounded; nil over digital silence (JSON has no infinity).
    let signalToNoiseDecibels: Double?

    enum CodingKeys: String, CodingKey {
        case event, text, intent, command, reply, confidence
        case latencyMilliseconds = "latency_ms"
        case signalToNoiseDecibels = "snr_db"
    }

    private init(event: String, text: String? = nil, intent: String? = nil, command: String? = nil, reply: String,
                 confidence: Double? = nil, latencyMilliseconds: Double? = nil, signalToNoiseDecibels: Double? = nil) {
        self.event = event
        self.text = text
        self.intent = intent
        self.command = command
        self.reply = reply
        self.confidence = confidence
        self.latencyMilliseconds = latencyMilliseconds.map { ($0 * 10).rounded() / 10 }
        self.signalToNoiseDecibels = signalToNoiseDecibels.flatMap { $0.isFinite ? ($0 * 10).rounded() / 10 : nil }
    }

    /// An utterance not acted on, with the sentence the user hears.
    private init(refused utterance: RecognizedUtterance, event: String, reply: String) {
        self.init(event: event, text: utterance.text, reply: reply, confidence: utterance.confidence,
                  signalToNoiseDecibels: utterance.signalToNoiseDecibels)
    }

    init(_ event: ListenerEvent<Interpretation>, language: CommandLanguage) {
        switch event {
        case .heard(let heard):
            let interpretation = heard.meaning ?? .notUnderstood
            self.init(event: "heard", text: heard.text, intent: interpretation.command?.intent.rawValue,
                      command: interpretation.command?.description, reply: language.reply(to: interpretation),
                      confidence: heard.confidence, latencyMilliseconds: heard.latencyMilliseconds,
                      signalToNoiseDecibels: heard.signalToNoiseDecibels)
        case .unclear(let utterance):
            self.init(refused: utterance, event: "unclear", reply: CommandListener<Interpretation>.pleaseRepeat)
        case .tooNoisy(let utterance):
            self.init(refused: utterance, event: "tooNoisy", reply: CommandListener<Interpretation>.tooNoisy)
        case .awake:
            self.init(event: "awake", reply: "")
        }
    }

    func line(json: Bool) -> String {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? "{}"
        }
        switch event {
        case "heard":
            return "Heard “\(text ?? "")” → \(command ?? "no command") (confidence \(String(format: "%.2f", confidence ?? 0)), \(Int(latencyMilliseconds ?? 0)) ms): \(reply)"
        case "unclear":
            return "Unclear (“\(text ?? "")”, confidence \(String(format: "%.2f", confidence ?? 0))): \(reply)"
        case "tooNoisy":
            let level = signalToNoiseDecibels.map { String(format: "%.1f dB", $0) } ?? "no louder"
            return "Too noisy (speech \(level) above the background): \(reply)"
        default:
            return "Awake: say a command."
        }
    }
}
