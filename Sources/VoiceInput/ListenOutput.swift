import Commands
import Foundation

/// Enter on standard input toggles the talk button (a thread of its own: reading blocks).
public enum PushToTalkKey {
    public static func start(_ button: TalkButton) {
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

/// One listener event as `assist listen` prints it: a line of text, or a JSON object.
public struct ListenOutput: Encodable, Sendable {
    public let event: String
    public let text: String?
    public let intent: String?
    public let command: String?
    public let reply: String
    public let confidence: Double?
    public let latencyMilliseconds: Double?
    /// Speech over background in dB, rounded; nil over digital silence (JSON has no infinity).
    public let signalToNoiseDecibels: Double?

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

    public init(_ event: ListenerEvent<CommandDecision>, language: CommandLanguage, wakePhrase: String? = nil) {
        switch event {
        case .heard(let heard):
            let decision = heard.meaning ?? .refuse(language.reply(to: .notUnderstood))
            let command: Command?
            let reply: String
            switch decision {
            case .act(let understood): command = understood; reply = language.confirmation(for: understood)
            case .confirm(let question, let pending): command = pending; reply = question
            case .refuse(let sentence): command = nil; reply = sentence
            }
            self.init(event: decision.command == nil ? (command == nil ? "refused" : "asked") : "heard", text: heard.text,
                      intent: command?.intent.rawValue, command: command?.description, reply: reply,
                      confidence: heard.confidence, latencyMilliseconds: heard.latencyMilliseconds,
                      signalToNoiseDecibels: heard.signalToNoiseDecibels)
        case .unclear(let utterance):
            self.init(refused: utterance, event: "unclear", reply: CommandListener<CommandDecision>.pleaseRepeat)
        case .tooNoisy(let utterance):
            self.init(refused: utterance, event: "tooNoisy", reply: CommandListener<CommandDecision>.tooNoisy)
        case .awake:
            self.init(event: "awake", text: wakePhrase, reply: "")
        }
    }

    /// A spoken answer to an open question: the command carried out after "yes", or nothing
    /// after "no" or a yes too late.
    init(answered heard: HeardCommand<CommandDecision>, confirmed: Command?, language: CommandLanguage) {
        self.init(event: confirmed == nil ? "cancelled" : "confirmed", text: heard.text, intent: confirmed?.intent.rawValue,
                  command: confirmed?.description,
                  reply: confirmed.map { language.confirmation(for: $0) } ?? language.cancelledSentence,
                  confidence: heard.confidence, latencyMilliseconds: heard.latencyMilliseconds,
                  signalToNoiseDecibels: heard.signalToNoiseDecibels)
    }

    public func line(json: Bool) -> String {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? "{}"
        }
        switch event {
        case "heard", "asked", "refused", "confirmed", "cancelled":
            let outcome: String
            switch event {
            case "heard": outcome = command ?? "no command"
            case "asked": outcome = "asks first: \(command ?? "")"
            case "confirmed": outcome = "\(command ?? "") (confirmed)"
            default: outcome = "nothing done"
            }
            return "Heard “\(text ?? "")” → \(outcome) (confidence \(String(format: "%.2f", confidence ?? 0)), \(Int(latencyMilliseconds ?? 0)) ms): \(reply)"
        case "unclear":
            return "Unclear (“\(text ?? "")”, confidence \(String(format: "%.2f", confidence ?? 0))): \(reply)"
        case "tooNoisy":
            let level = signalToNoiseDecibels.map { String(format: "%.1f dB", $0) } ?? "no louder"
            // Speech the detector missed in the noise has no words: say so rather than print “”.
            let words = (text ?? "").isEmpty ? "no words made out" : "heard “\(text ?? "")”"
            return "Too noisy (speech \(level) above the background; \(words)): \(reply)"
        default:
            return "Heard the wake phrase “\(text ?? "")”: say a command."
        }
    }
}

/// `assist listen`: the command language's recogniser and listener as a live session uses them
/// for speech (what would hide things is asked about), triggered always, by a wake phrase, or
/// by a push-to-talk key, decoding as `decoding` says.
public struct CommandListening {
    public let language: CommandLanguage
    public let listener: CommandListener<CommandDecision>

    public init(language: CommandLanguage, wakePhrase: String?, pushToTalk: Bool, decoding: ListeningDecoding = .standard) throws {
        self.language = language
        let understanding = CommandUnderstanding.loadOrPhrasesOnly(language: language) {
            FileHandle.standardError.write(Data(($0 + "\n").utf8))
        }
        let trigger: ListeningTrigger = pushToTalk ? .pushToTalk : wakePhrase.map { .wakePhrase($0) } ?? .always
        listener = try Self.listener(language: language, understanding: understanding, wakePhrase: wakePhrase, trigger: trigger,
                                     decoding: decoding)
    }

    /// The one set-up of the command listener, for `assist listen` and the live session alike:
    /// the recogniser `decoding` names (its models loaded once, here), and each utterance's
    /// transcript decided by `decoding`'s rule.
    public static func listener(language: CommandLanguage, understanding: CommandUnderstanding, wakePhrase: String?,
                                trigger: ListeningTrigger, decoding: ListeningDecoding) throws -> CommandListener<CommandDecision> {
        let vocabulary = VoiceCommandVocabulary(language: language, wakePhrase: wakePhrase)
        let recognizer = try decoding.recognizer(vocabulary: vocabulary)
        return CommandListener<CommandDecision>(recognizer: recognizer, trigger: trigger,
                                                decide: { decoding.decide($0, understanding: understanding) })
    }
}

extension CommandListening {
    /// `assist listen`: listens to `file` (or the microphone) and prints each event as it comes, one line
    /// (or JSON object) each; `categories` are the object categories commands may name.
    public static func printEvents(categories: [String], file: String?, microphone: String?, wakePhrase: String?,
                                   pushToTalk: Bool, decoding: ListeningDecoding = .standard, json: Bool) throws {
        let language = try CommandLanguage(language: "en", categories: categories)
        if let files = try? SpeechModelFiles.installed(), files.needsPreparing {
            FileHandle.standardError.write(Data("\(language.sentence(.preparingSpeechRecognition))\n".utf8))
        }
        let listening = try CommandListening(language: language, wakePhrase: wakePhrase, pushToTalk: pushToTalk, decoding: decoding)
        let listener = listening.listener
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
        var conversation = ListenConversation(language: language, wakePhrase: wakePhrase)
        try listener.listen(to: source) { event in
            print(conversation.output(for: event).line(json: json))
        }
    }
}

/// `assist listen`'s questions, kept as the live session keeps them: a command asked about
/// ("Ignore chairs? Say yes or no.") is shown carried out only after a "yes" heard within the
/// question's time (`PendingConfirmation`), dropped after "no", a late yes or any other command.
/// Time is the audio's own clock, so a recording answers as it would have live.
public struct ListenConversation {
    let language: CommandLanguage
    let wakePhrase: String?
    private var question = PendingConfirmation<StreamInstant>()

    public init(language: CommandLanguage, wakePhrase: String? = nil) {
        self.language = language
        self.wakePhrase = wakePhrase
    }

    public mutating func output(for event: ListenerEvent<CommandDecision>) -> ListenOutput {
        guard case .heard(let heard) = event else { return ListenOutput(event, language: language, wakePhrase: wakePhrase) }
        let now = StreamInstant(seconds: heard.endOfSpeechSeconds)
        switch question.answer(heard.transcripts.answerText, at: now, isYes: language.answer) {
        case .confirmed(let command): return ListenOutput(answered: heard, confirmed: command, language: language)
        case .declined, .expired: return ListenOutput(answered: heard, confirmed: nil, language: language)
        case .notAnAnswer:
            if case .confirm(_, let pending)? = heard.meaning { question.ask(pending, at: now) }
            return ListenOutput(event, language: language, wakePhrase: wakePhrase)
        }
    }
}

/// A moment on an audio stream's own clock, in seconds from its start: a recording's time, not
/// the wall clock's, so questions time out as they would have live however fast a file is read.
public struct StreamInstant: InstantProtocol, Sendable {
    public var seconds: Double

    public init(seconds: Double) { self.seconds = seconds }

    public func advanced(by duration: Duration) -> StreamInstant {
        let (whole, attoseconds) = duration.components
        return StreamInstant(seconds: seconds + Double(whole) + Double(attoseconds) * 1e-18)
    }

    public func duration(to other: StreamInstant) -> Duration { .seconds(other.seconds - seconds) }

    public static func < (a: StreamInstant, b: StreamInstant) -> Bool { a.seconds < b.seconds }
}
