import Foundation
import Synchronization

/// When the listener acts on what it hears.
public enum ListeningTrigger: Sendable, Equatable {
    /// Every confident utterance is a command.
    case always
    /// Only audio heard while the talk button is held (`setTalkButton(pressed:)`: a key, or a
    /// control message) is listened to; releasing it ends the utterance.
    case pushToTalk
    /// Only commands that start with the wake phrase, or that follow it alone within `awakeSeconds`.
    case wakePhrase(String, awakeSeconds: Double = 5)
}

/// What the listener reports.
public enum ListenerEvent<Meaning: Sendable>: Sendable {
    /// A command was heard: the recognised words (wake phrase removed), and their meaning (nil
    /// when the command language has none for them: the caller says "Sorry, I didn't catch that").
    case heard(HeardCommand<Meaning>)
    /// Speech was heard but not clearly (another language, mumbling, a cough): say `CommandListener.pleaseRepeat`.
    case unclear(RecognizedUtterance)
    /// Speech was heard over too much background noise to trust what was recognised: say
    /// `CommandListener.tooNoisy`, nothing is done.
    case tooNoisy(RecognizedUtterance)
    /// The wake phrase alone: the listener now waits for a command.
    case awake
}

public struct HeardCommand<Meaning: Sendable>: Sendable {
    /// What was heard, as printed.
    public let text: String
    /// The recogniser's words and its confidence in them (wake phrase removed).
    public let transcripts: HeardTranscripts
    public let meaning: Meaning?
    public let confidence: Double
    /// How far the speech stood above the background, in dB (+∞ over digital silence).
    public let signalToNoiseDecibels: Double
    /// From the detector's end of speech to the command being in hand: the silence the detector
    /// waits for, plus processing (and any backlog). Estimated from the configured silence wait,
    /// since the true end of speech is not known live.
    public let latencyMilliseconds: Double
    /// When the detector found the speech over, in seconds of the audio's own clock (a
    /// recording's time; the microphone's since listening began).
    public let endOfSpeechSeconds: Double
}

/// Listens for spoken commands: pulls audio from a source, finds utterances, rejects unclear
/// ones, applies the trigger (push-to-talk, wake phrase), and turns the text into a meaning
/// with `understand` (the command language's parser), or the transcript and its confidence
/// into one with `decide` (`ListeningDecoding`).
public final class CommandListener<Meaning: Sendable> {
    /// The sentence for an unclear utterance.
    public static var pleaseRepeat: String { "Please repeat." }
    /// The sentence for speech drowned by the background: why, and what to do instead.
    public static var tooNoisy: String {
        "It is too noisy for me to understand you. Please repeat closer to the microphone, type the command, or use the headset keys: play to scan, next to explore, previous to repeat."
    }

    public let recognizer: CommandRecognizer
    public let trigger: ListeningTrigger
    private let understand: (HeardTranscripts) -> Meaning?
    private let silenceWaitMilliseconds: Double
    /// Push-to-talk's button: hand it to whatever presses it (a key reader, a control socket).
    public let talkButton = TalkButton()

    public convenience init(recognizer: CommandRecognizer, trigger: ListeningTrigger = .always,
                understand: @escaping (String) -> Meaning?) {
        self.init(recognizer: recognizer, trigger: trigger, decide: { understand($0.answerText) })
    }

    public init(recognizer: CommandRecognizer, trigger: ListeningTrigger = .always,
                decide: @escaping (HeardTranscripts) -> Meaning?) {
        self.recognizer = recognizer
        self.trigger = trigger
        self.understand = decide
        if let neural = recognizer.utterances as? NeuralUtteranceRecognizer {
            silenceWaitMilliseconds = Double(neural.endpointer.silenceWindows * SileroSpeechDetector.windowSamples) * 1000 / RecognizerAudio.sampleRateHz
        } else {
            silenceWaitMilliseconds = 0  // another utterance finder: its silence wait is not known
        }
    }

    public func setTalkButton(pressed: Bool) { talkButton.set(pressed: pressed) }

    /// Listens until the source ends (or is stopped), reporting each event as it happens.
    public func listen(to source: SpeechAudioSource, onEvent: (ListenerEvent<Meaning>) -> Void) throws {
        let utterances = recognizer.utterances
        let clock = ContinuousClock()
        var awakeUntilSeconds = -Double.infinity
        var wasPressed = false
        func handle(_ utterance: RecognizedUtterance?, processingStarted: ContinuousClock.Instant) {
            guard let utterance else { return }
            let latency = silenceWaitMilliseconds + Self.milliseconds(processingStarted.duration(to: clock.now))
            switch recognizer.verdict(utterance) {
            case .accepted: break
            case .unclear: return onEvent(.unclear(utterance))
            case .tooNoisy: return onEvent(.tooNoisy(utterance))
            case .noSpeech: return
            }
            let text = utterance.text
            var transcripts = recognizer.transcripts(of: utterance)
            if case .wakePhrase(let phrase, let awakeSeconds) = trigger {
                let wake = phrase.lowercased()
                if text == wake {
                    awakeUntilSeconds = utterance.endDetectedSeconds + awakeSeconds
                    return onEvent(.awake)
                }
                if text.hasPrefix(wake + " ") {
                    transcripts = transcripts.removingPrefix(wake)
                } else if utterance.speechStartSeconds > awakeUntilSeconds {
                    return  // a command without the wake phrase, while not awake: not meant for us
                }
                awakeUntilSeconds = -Double.infinity
            }
            onEvent(.heard(HeardCommand(text: transcripts.text, transcripts: transcripts, meaning: understand(transcripts),
                                        confidence: utterance.confidence,
                                        signalToNoiseDecibels: utterance.signalToNoiseDecibels,
                                        latencyMilliseconds: latency, endOfSpeechSeconds: utterance.endDetectedSeconds)))
        }
        while let chunk = try source.nextChunk() {
            let started = clock.now
            if trigger == .pushToTalk {
                let pressed = talkButton.isPressed
                defer { wasPressed = pressed }
                if !pressed {
                    if wasPressed { handle(try utterances.finish(), processingStarted: started) }
                    continue
                }
                if !wasPressed { try utterances.reset() }
            }
            handle(try utterances.push(chunk), processingStarted: started)
        }
        handle(try utterances.finish(), processingStarted: clock.now)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}

/// The push-to-talk button's state, safe to set from any thread.
public final class TalkButton: Sendable {
    private let pressed = Mutex(false)

    public init() {}

    public func set(pressed value: Bool) { pressed.withLock { $0 = value } }
    public var isPressed: Bool { pressed.withLock { $0 } }
}
