import Commands
import Foundation

/// How the live listener (`assist listen`, `assist see --listen`) turns speech into a decision:
/// the one definition both use. The closed grammar gets more commands right but acts on wrong
/// ones (it can only ever hear some command); open speech (the command n-gram model, then
/// `OpenSpeechUnderstanding`) acts wrongly far less; agreement decodes every utterance both ways
/// and acts only when both understand the same command (BENCHMARKS.md, "Which decoding the
/// listener uses").
public enum ListeningDecoding: String, CaseIterable, Sendable {
    /// Silero VAD and Moonshine base-en, the command language's phrases favoured; the
    /// transcript judged as open speech is (issue 35).
    case neural
    case grammar
    case openSpeech = "open-speech"
    case agreement

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
        case .grammar: return "grammar: only the command language's exact phrases can be heard; most right, but it acts on misheard commands"
        case .openSpeech: return "open-speech: open speech (the command n-gram model) judged by meaning; acts only when certain, asks otherwise"
        case .agreement: return "agreement: both decoders on every utterance; acts only when both understand the same command, else asks or refuses (twice the CPU)"
        }
    }

    /// Every choice, one sentence each: for an option's help (which shows the default itself).
    public static var choicesHelp: String {
        allCases.map(\.explanation).joined(separator: ". ")
    }

    /// "grammar", "open-speech" (also "ngram"), "agreement".
    public init?(choice: String) {
        if choice == "ngram" { self = .openSpeech; return }
        self.init(rawValue: choice)
    }

    /// The recogniser for this decoding: its decoders are started once here (the n-gram model
    /// counted, the grammar checked), not per utterance.
    public func recognizer(vocabulary: VoiceCommandVocabulary, tuning: DecoderTuning = DecoderTuning(),
                           openSpeechConfidence: RecognitionConfidence = .openSpeech, logFile: URL? = nil) throws -> CommandRecognizer {
        switch self {
        case .neural:
            return try CommandRecognizer(neural: try SpeechModelFiles.installed(), language: vocabulary.language,
                                         extraPhrases: vocabulary.grammar.wakePhrase.map { [$0] } ?? [])
        case .grammar:
            return try CommandRecognizer(grammar: vocabulary.grammar, tuning: tuning, logFile: logFile)
        case .openSpeech:
            return try CommandRecognizer(languageModelOf: vocabulary.language, generalWeight: 0, tuning: tuning,
                                         confidence: openSpeechConfidence, logFile: logFile)
        case .agreement:
            return try CommandRecognizer(agreementOf: vocabulary, tuning: tuning, openSpeechConfidence: openSpeechConfidence,
                                         logFile: logFile)
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
        case .grammar:
            return heard.grammar.map { understanding.decide($0, channel: .spoken(certain: false)) } ?? notUnderstood
        case .neural:
            guard let text = heard.openSpeech else { return notUnderstood }
            if let confidence = heard.neuralConfidence, confidence >= neuralCertainWords {
                return understanding.decide(text, channel: .spoken(certain: true))
            }
            return OpenSpeechUnderstanding(understanding: understanding).decide(text)
        case .openSpeech:
            return heard.openSpeech.map { OpenSpeechUnderstanding(understanding: understanding).decide($0) } ?? notUnderstood
        case .agreement:
            return Self.agree(grammar: heard.grammar.map { understanding.decide($0, channel: .spoken(certain: false)) },
                              openSpeech: heard.openSpeech.map { OpenSpeechUnderstanding(understanding: understanding).decide($0) },
                              language: understanding.language)
        }
    }

    /// The agreement rule over the two paths' decisions (nil: that decoder heard nothing it was
    /// sure of). Act only when both paths would act on the same command. Otherwise ask about
    /// open speech's command, the path that measured fewer wrong actions; with none, refuse.
    /// (Acting also when open speech only asked, its meaning not certain, acted on 4 of 255
    /// non-commands rather than open speech's own 3: BENCHMARKS.md.)
    /// The grammar's command alone is never asked about: the grammar can only hear commands, so
    /// its command when open speech heard none is the mishearing this rule exists to stop.
    public static func agree(grammar: CommandDecision?, openSpeech: CommandDecision?, language: CommandLanguage) -> CommandDecision {
        let candidate: Command?
        switch openSpeech {
        case .act(let command)?, .confirm(_, let command)?: candidate = command
        case .refuse?, nil: candidate = nil
        }
        if case .act(let heard)? = grammar, case .act(let understood)? = openSpeech, heard == understood { return .act(heard) }
        if let candidate {
            if case .confirm? = openSpeech { return openSpeech! }
            return .confirm(question: language.confirmationQuestion(for: candidate), pending: candidate)
        }
        if case .refuse? = openSpeech { return openSpeech! }
        if case .refuse? = grammar { return grammar! }
        return .refuse(language.reply(to: .notUnderstood))
    }
}

/// The words each decoder made out of one utterance, when it was sure enough of them (nil: it
/// heard nothing it was sure of, or did not decode this utterance).
public struct HeardTranscripts: Sendable, Equatable {
    public var grammar: String?
    public var openSpeech: String?
    /// The neural recogniser's confidence in `openSpeech` (Moonshine's geometric-mean token
    /// probability); nil for pocketsphinx, whose posteriors are on another scale.
    public var neuralConfidence: Double?

    public init(grammar: String?, openSpeech: String?) {
        self.grammar = grammar
        self.openSpeech = openSpeech
    }

    /// What is printed as heard: the one transcript, or both when they differ ("a | b", grammar first).
    public var text: String {
        switch (grammar, openSpeech) {
        case let (g?, o?) where g != o: return "\(g) | \(o)"
        default: return grammar ?? openSpeech ?? ""
        }
    }

    /// The words a yes or no is read from: the grammar's (it knows the answer words) when it was sure.
    public var answerText: String { grammar ?? openSpeech ?? "" }

    /// Both with a leading phrase (the wake phrase) taken off where present.
    func removingPrefix(_ prefix: String) -> HeardTranscripts {
        func strip(_ text: String?) -> String? {
            guard let text else { return nil }
            return text.hasPrefix(prefix + " ") ? String(text.dropFirst(prefix.count + 1)) : text
        }
        var stripped = HeardTranscripts(grammar: strip(grammar), openSpeech: strip(openSpeech))
        stripped.neuralConfidence = neuralConfidence
        return stripped
    }
}
