import AssistCore
import Foundation
import VoiceInput

/// What `assist bench voice` runs, from its comma-separated options: the speaking rates, the
/// listening conditions (clean, white noise and babble at each SNR), the voices and the decodings.
public struct VoiceBenchmarkPlan: Sendable {
    public let rateTexts: [Substring]
    public let rates: [Double]
    public let conditionNames: [String]
    public let snrTexts: [Substring]
    public let snrs: [Double]
    /// The voices saying the commands (`EspeakTestVoice.named`).
    public let voiceNames: [String]
    /// How speech is decoded: neural (`ListeningDecoding`), neural-ort, neural-baseline.
    public let decodePaths: [String]

    public init(rates: String, snr: String, conditions: String, voices: String = "festival", decode: String = "neural") {
        voiceNames = voices.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        decodePaths = decode.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        rateTexts = rates.split(separator: ",")
        self.rates = rateTexts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        conditionNames = conditions.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        snrTexts = snr.split(separator: ",")
        snrs = snrTexts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// A part of the plan that is not allowed, told as one sentence; the command line names its option.
    public enum Problem: UserFacingError, Equatable, CaseIterable {
        case conditions, snr, voices, decode, rates
        /// The neural recogniser's settings measured by hand (`VoiceBenchmarkRun.neural…`).
        case certainWords, aheadAfter, endSilence

        /// The part as the user knows it, at the start of a sentence.
        public var name: String {
            switch self {
            case .conditions: return "The listening conditions"
            case .snr: return "The signal-to-noise ratios"
            case .voices: return "The voices"
            case .decode: return "The ways of decoding"
            case .rates: return "The speaking rates"
            case .certainWords: return "The confidence for certain words"
            case .aheadAfter: return "The silence before transcribing ahead"
            case .endSilence: return "The silence that ends an utterance"
            }
        }

        /// What the part must be, after its name.
        public var requirement: String {
            switch self {
            case .conditions: return "must be a comma-separated list of clean, white and babble."
            case .snr: return "must be comma-separated decibels between -20 and 80, such as 10,20,30."
            case .voices: return "must be a comma-separated list of festival, espeak-en-us, espeak-en-gb, piper and piper-fast."
            case .decode:
                return "must be a comma-separated list of neural, neural-ort, neural-level-end and neural-baseline (grammar, open-speech, ngram and agreement were the old recogniser's, which has been removed)."
            case .rates: return "must be comma-separated numbers between 0.3 and 3, such as 0.8,1.0,1.25."
            case .certainWords: return "must be between 0 and 1."
            case .aheadAfter: return "must be 1 to 4 windows."
            case .endSilence: return "must be 1 to 62 windows (32 ms to 2 s)."
            }
        }

        public var userMessage: String { "\(name) \(requirement)" }
    }

    /// What is wrong with the plan (all but the rates); nil when all is well.
    public var problem: Problem? {
        guard !conditionNames.isEmpty, conditionNames.allSatisfy(["clean", "white", "babble"].contains) else { return .conditions }
        guard !snrs.isEmpty, snrs.count == snrTexts.count, snrs.allSatisfy({ $0 > -20 && $0 < 80 }) else { return .snr }
        guard !voiceNames.isEmpty, voiceNames.allSatisfy({ EspeakTestVoice.named($0) != nil }) else { return .voices }
        guard !decodePaths.isEmpty, decodePaths.allSatisfy({ decoding($0) != nil }) else { return .decode }
        return nil
    }

    /// What is wrong with the neural recogniser's settings given by hand (each nil: its default);
    /// nil when all is well.
    public static func neuralProblem(certainWords: Double?, aheadAfterWindows: Int?, endSilenceWindows: Int?) -> Problem? {
        if let certainWords, !(0...1).contains(certainWords) { return .certainWords }
        if let aheadAfterWindows, !(1...4).contains(aheadAfterWindows) { return .aheadAfter }
        if let endSilenceWindows, !(1...62).contains(endSilenceWindows) { return .endSilence }
        return nil
    }

    /// The rates' problem, checked after the phrase count as the command always did.
    public var rateProblem: Problem? {
        guard rates.count == rateTexts.count, !rates.isEmpty, rates.allSatisfy({ $0 > 0.3 && $0 < 3 }) else { return .rates }
        return nil
    }

    public var conditions: [TestCondition] {
        conditionNames.flatMap { name -> [TestCondition] in
            switch name {
            case "clean": return [.clean]
            case "white": return snrs.map { .noisy(.white, snrDecibels: $0) }
            case "babble": return snrs.map { .noisy(.babble, snrDecibels: $0) }
            default: return []
            }
        }
    }

    public var voices: [any TestVoice] { voiceNames.compactMap(EspeakTestVoice.named) }
    /// A decoding the listener has, or one of the neural recogniser's earlier forms.
    public enum Decoding: Equatable {
        case listening(ListeningDecoding)
        /// The neural recogniser as it was before the twenty-first session, for comparison in one
        /// run: its transcript made only once the end is confirmed (`transcribesAhead` off), and
        /// every transcript the phrase patterns do not take outright asked about, however sure
        /// Moonshine was of the words (`ListeningDecoding.neuralCertainWords` out of reach).
        case neuralBaseline
        /// This recogniser with Moonshine run from its `.ort` files as they are (before the
        /// twenty-second session: every step expands the 8-bit weights again), for comparison in one run.
        case neuralORTFiles
        /// This recogniser with the level weighed against the background's in finding the end of
        /// a command (`SpeechEndpointer.followsForegroundLevel` on): an experiment.
        case neuralLevelEnd
    }

    /// "neural": the listener's; "neural-baseline", "neural-ort": its earlier forms; "neural-level-end": an experiment.
    public func decoding(_ name: String) -> Decoding? {
        if let listening = ListeningDecoding(choice: name) { return .listening(listening) }
        if name == "neural-baseline" { return .neuralBaseline }
        if name == "neural-ort" { return .neuralORTFiles }
        if name == "neural-level-end" { return .neuralLevelEnd }
        return nil
    }
}
