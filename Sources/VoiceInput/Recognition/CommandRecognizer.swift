import Commands
import Foundation

/// The recogniser for commands: a decoder searching the command grammar (after its words were
/// checked against the pronunciation dictionary), and the utterance loop over it.
public final class CommandRecognizer {
    public let pronunciationCheck: PronunciationCheck
    public let utterances: UtteranceRecognizer
    public let confidence: RecognitionConfidence

    public init(grammar: RecognitionGrammar, model: SpeechModel = .englishUS, tuning: DecoderTuning = DecoderTuning(),
                confidence: RecognitionConfidence = RecognitionConfidence(), logFile: URL? = nil) throws {
        let decoder = try PocketSphinxDecoder(model: model, search: nil, tuning: tuning, logFile: logFile)
        let check = PronunciationCheck.run(grammar, on: decoder)
        try decoder.use(.grammar(jsgf: check.usableGrammar.jsgf))
        pronunciationCheck = check
        self.confidence = confidence
        utterances = try UtteranceRecognizer(decoder: decoder, confidence: confidence)
    }

    /// Open speech: a decoder searching the command language's n-gram model (built here from
    /// its examples and pattern phrases, `CommandLanguage.languageModelSentences`), interpolated
    /// with the model's general English one at `generalWeight` (0: the command model alone).
    /// Sentences with a word no pronunciation can be found for are left out of the counts.
    public init(languageModelOf language: CommandLanguage, generalWeight: Double, model: SpeechModel = .englishUS,
                tuning: DecoderTuning = DecoderTuning(), confidence: RecognitionConfidence = .openSpeech,
                logFile: URL? = nil) throws {
        let decoder = try PocketSphinxDecoder(model: model, search: nil, tuning: tuning, logFile: logFile)
        let sentences = language.languageModelSentences()
        let check = PronunciationCheck.run(RecognitionGrammar(commandJSGF: "", words: sentences.flatMap(\.words)), on: decoder)
        let missing = Set(check.missingWords)
        let counted = sentences.filter { !$0.words.contains(where: missing.contains) }
        let languageModel = NGramLanguageModel(sentences: counted.map { ($0.words, $0.weight) })
        try decoder.use(.interpolatedLanguageModel(arpa: languageModel.arpa, general: generalWeight > 0 ? model.languageModel : nil,
                                                   generalWeight: generalWeight))
        pronunciationCheck = check
        self.confidence = confidence
        utterances = try UtteranceRecognizer(decoder: decoder, confidence: confidence)
    }
}

/// How commands are decoded: the closed grammar (only the language's exact phrases can be
/// heard), or open speech with the command n-gram model at a general-English weight.
public enum CommandDecodePath: Sendable, Equatable, CustomStringConvertible {
    case grammar
    case languageModel(generalWeight: Double)

    /// "grammar", "ngram" (the command model alone) or "ngram:0.3" (30 % general English).
    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 1)
        switch parts.first {
        case "grammar" where parts.count == 1: self = .grammar
        case "ngram":
            guard let weight = parts.count > 1 ? Double(parts[1]) : 0, (0...1).contains(weight) else { return nil }
            self = .languageModel(generalWeight: weight)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .grammar: return "grammar"
        case .languageModel(let weight): return weight == 0 ? "ngram" : "ngram:\(weight)"
        }
    }
}

/// Free English speech (the model's general language model), for measuring the recogniser on
/// recorded human speech: word error rate against a transcript.
public final class DictationRecognizer {
    public let utterances: UtteranceRecognizer

    public init(model: SpeechModel = .englishUS, tuning: DecoderTuning = DecoderTuning(postSpeechFrames: 50), logFile: URL? = nil) throws {
        let decoder = try PocketSphinxDecoder(model: model, search: .languageModel(model.languageModel), tuning: tuning, logFile: logFile)
        utterances = try UtteranceRecognizer(decoder: decoder)
    }

    /// Everything said in `samples` (16 kHz mono), utterances joined by spaces.
    public func transcribe(_ samples: [Int16]) throws -> String {
        var texts: [String] = []
        let chunk = 1_600
        for start in stride(from: 0, to: samples.count, by: chunk) {
            if let heard = try utterances.push(Array(samples[start..<min(start + chunk, samples.count)])), !heard.text.isEmpty { texts.append(heard.text) }
        }
        if let heard = try utterances.finish(), !heard.text.isEmpty { texts.append(heard.text) }
        return texts.joined(separator: " ")
    }
}
