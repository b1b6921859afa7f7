import Commands
import Foundation

/// How the live listener (`assist listen`, `assist see --listen`) and the benchmarks turn speech
/// into a decision: the one definition all use. One recogniser remains (issue 35 item 5): the
/// old recogniser's grammar, command n-gram and agreement decodings were removed, the neural
/// recogniser carrying out more than twice as many held-out spoken commands with no more wrong
/// actions (BENCHMARKS.md, "Issue 35 item 5 (twenty-third session): one recogniser").
public enum ListeningDecoding: String, CaseIterable, Sendable {
    /// Silero VAD and Moonshine base-en, the command language's phrases favoured; the
    /// transcript judged as open speech is (issue 35).
    case neural

    /// The decoding used unless one is chosen, by the rule written down in BENCHMARKS.md before
    /// the measurement: fewest wrong actions first, then most right, then latency. The neural
    /// recogniser is ahead of agreement on the held-out spoken commands for every voice
    /// (BENCHMARKS.md, issue 35 and "Issue 35 (continued)"). Its failure inside `assist see`
    /// ("GetElementType is not implemented") was ONNX Runtime torn down by exit() under a decode
    /// still running on the listener's thread, fixed in the wrapper (`RuntimeLifetimeTests`).
    public static let standard: ListeningDecoding = .neural

    /// One line for `--help`.
    public var explanation: String {
        switch self {
        case .neural: return "neural: a neural speech recogniser (Moonshine) that writes what was said, judged by meaning; acts only when certain, asks otherwise"
        }
    }

    /// Every choice, one sentence each: for an option's help (which shows the default itself).
    public static var choicesHelp: String {
        allCases.map(\.explanation).joined(separator: ". ")
    }

    /// "neural"; nil for anything else (see `removedChoices` for the old recogniser's names).
    public init?(choice: String) {
        self.init(rawValue: choice)
    }

    /// The names the old recogniser's decodings had (its grammar, command n-gram and agreement,
    /// removed in issue 35), which a user may have scripted.
    public static let removedChoices: Set<String> = ["grammar", "open-speech", "ngram", "agreement"]

    /// Why `choice` is no decoding, the end of one sentence that the caller starts with its
    /// option ("--decode grammar" + this).
    public static func problem(withChoice choice: String) -> String {
        let name = choice.split(separator: ":").first.map(String.init) ?? choice
        if removedChoices.contains(name) {
            return " was a decoding of the old recogniser, which has been removed; speech is recognised by the neural recogniser, and neural is the only choice."
        }
        return " is no decoding; neural is the only choice."
    }

    /// The recogniser for this decoding: its models are loaded once here, not per utterance.
    public func recognizer(vocabulary: VoiceCommandVocabulary) throws -> CommandRecognizer {
        switch self {
        case .neural:
            return try CommandRecognizer(neural: try SpeechModelFiles.installed(), language: vocabulary.language,
                                         extraPhrases: vocabulary.wakePhrase.map { [$0] } ?? [])
        }
    }

    /// The neural recogniser's confidence at and above which its words are taken as said: its
    /// transcript is then decided as a typed line is, except that what would hide things still
    /// needs a certain meaning (`InputChannel.spoken(certain: true)`). Below it, the words may
    /// be a near miss of what was said, and `OpenSpeechUnderstanding` asks about what the
    /// phrase patterns do not take outright. Chosen on a development set, never on the held-out
    /// ones (BENCHMARKS.md, "Issue 35 (twenty-first session)").
    public static let neuralCertainWords = 0.8

    /// What is done with one utterance's transcripts (spoken, so what would hide things is asked about).
    /// `neuralCertainWords`: the bar above (`ListeningDecoding.neuralCertainWords` unless measuring another).
    public func decide(_ heard: HeardTranscripts, understanding: CommandUnderstanding,
                       neuralCertainWords: Double = ListeningDecoding.neuralCertainWords) -> CommandDecision {
        let notUnderstood = CommandDecision.refuse(understanding.language.reply(to: .notUnderstood))
        switch self {
        case .neural:
            guard let text = heard.openSpeech else { return notUnderstood }
            if let confidence = heard.neuralConfidence, confidence >= neuralCertainWords {
                return understanding.decide(text, channel: .spoken(certain: true))
            }
            return OpenSpeechUnderstanding(understanding: understanding).decide(text)
        }
    }
}

/// The words the recogniser made out of one utterance, when it was sure enough of them (nil: it
/// heard nothing it was sure of), and how sure it was.
public struct HeardTranscripts: Sendable, Equatable {
    /// The recogniser's words (named for open speech, judged by meaning, as the neural path's are).
    public var openSpeech: String?
    /// The recogniser's confidence in `openSpeech` (Moonshine's geometric-mean token probability).
    public var neuralConfidence: Double?

    public init(_ words: String?, confidence: Double? = nil) {
        openSpeech = words
        neuralConfidence = confidence
    }

    /// What is printed as heard.
    public var text: String { openSpeech ?? "" }

    /// The words a yes or no is read from.
    public var answerText: String { openSpeech ?? "" }

    /// With a leading phrase (the wake phrase) taken off where present.
    func removingPrefix(_ prefix: String) -> HeardTranscripts {
        guard let words = openSpeech, words.hasPrefix(prefix + " ") else { return self }
        return HeardTranscripts(String(words.dropFirst(prefix.count + 1)), confidence: neuralConfidence)
    }
}
