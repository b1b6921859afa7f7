import AssistCore
import Commands
import Foundation

/// The recogniser for commands: Silero VAD and Moonshine with the command language's phrases
/// favoured (`init(neural:)`, the standard), or pocketsphinx searching the command grammar
/// (after its words were checked against the pronunciation dictionary) or the command n-gram
/// model; and the utterance loop over it.
public final class CommandRecognizer {
    /// pocketsphinx's words without a pronunciation (empty for the neural recogniser, which spells).
    public let pronunciationCheck: PronunciationCheck
    public let utterances: any UtteranceFinding
    public let confidence: RecognitionConfidence
    /// What the first decoder searches (its detector delimits utterances); under agreement the
    /// grammar, with the command n-gram model as the companion decoder of every utterance.
    public let path: CommandDecodePath

    public init(grammar: RecognitionGrammar, model: SpeechModel = .englishUS, tuning: DecoderTuning = DecoderTuning(),
                confidence: RecognitionConfidence = RecognitionConfidence(), logFile: URL? = nil) throws {
        let decoder = try PocketSphinxDecoder(model: model, search: nil, tuning: tuning, logFile: logFile)
        let check = PronunciationCheck.run(grammar, on: decoder)
        try decoder.use(.grammar(jsgf: check.usableGrammar.jsgf))
        pronunciationCheck = check
        self.confidence = confidence
        path = .grammar
        utterances = try UtteranceRecognizer(decoder: decoder, confidence: confidence)
    }

    /// The neural recogniser: Silero VAD finds utterances, Moonshine base-en transcribes them
    /// with the command language's phrases favoured (`PhraseBias`, built from the same sentences
    /// as the command n-gram model, the answers, and the wake phrase). `confidence.acceptance`
    /// is the bar on Moonshine's geometric-mean token probability.
    /// `decoderThreadCount`: Moonshine's decoder's threads (`MoonshineTranscriber.decoderThreadCount`; 0: ONNX Runtime's default).
    /// `onnxCopies`: `MoonshineTranscriber`'s (false only for the benchmark's `neural-ort`).
    public init(neural files: SpeechModelFiles, language: CommandLanguage, extraPhrases: [String] = [],
                confidence: RecognitionConfidence = .neural, bias: Bool = true,
                decoderThreadCount: Int = MoonshineTranscriber.decoderThreadCount, onnxCopies: Bool = true) throws {
        let detector = try SileroSpeechDetector(modelAt: files.voiceActivity)
        let phrases = language.languageModelSentences().map { $0.words.joined(separator: " ") } + language.answerPhrases + extraPhrases
        let transcriber = try MoonshineTranscriber(files: files, bias: bias ? PhraseBias(phrases: phrases) : .none,
                                                   decoderThreadCount: decoderThreadCount, onnxCopies: onnxCopies)
        pronunciationCheck = PronunciationCheck(addedWords: [:], missingWords: [], emptiedRules: [], usableGrammar: RecognitionGrammar(commandJSGF: "", words: []))
        self.confidence = confidence
        path = .neural
        utterances = NeuralUtteranceRecognizer(detector: detector, transcriber: transcriber)
    }

    /// Agreement (`ListeningDecoding.agreement`): the grammar decoder, and the command n-gram
    /// decoder fed the same audio and finished with each of its utterances.
    public init(agreementOf vocabulary: VoiceCommandVocabulary, model: SpeechModel = .englishUS, tuning: DecoderTuning = DecoderTuning(),
                confidence: RecognitionConfidence = RecognitionConfidence(), openSpeechConfidence: RecognitionConfidence = .openSpeech,
                logFile: URL? = nil) throws {
        let decoder = try PocketSphinxDecoder(model: model, search: nil, tuning: tuning, logFile: logFile)
        let check = PronunciationCheck.run(vocabulary.grammar, on: decoder)
        try decoder.use(.grammar(jsgf: check.usableGrammar.jsgf))
        let open = try Self.openSpeechDecoder(language: vocabulary.language, generalWeight: 0, model: model, tuning: tuning, logFile: logFile)
        pronunciationCheck = check
        self.confidence = confidence
        path = .grammar
        utterances = try UtteranceRecognizer(decoder: decoder, confidence: confidence,
                                             companion: CompanionDecoder(decoder: open.decoder, confidence: openSpeechConfidence))
    }

    /// Open speech: a decoder searching the command language's n-gram model (built here from
    /// its examples and pattern phrases, `CommandLanguage.languageModelSentences`), interpolated
    /// with the model's general English one at `generalWeight` (0: the command model alone).
    /// Sentences with a word no pronunciation can be found for are left out of the counts.
    public init(languageModelOf language: CommandLanguage, generalWeight: Double, model: SpeechModel = .englishUS,
                tuning: DecoderTuning = DecoderTuning(), confidence: RecognitionConfidence = .openSpeech,
                logFile: URL? = nil) throws {
        let open = try Self.openSpeechDecoder(language: language, generalWeight: generalWeight, model: model, tuning: tuning, logFile: logFile)
        pronunciationCheck = open.check
        self.confidence = confidence
        path = .languageModel(generalWeight: generalWeight)
        utterances = try UtteranceRecognizer(decoder: open.decoder, confidence: confidence)
    }

    private static func openSpeechDecoder(language: CommandLanguage, generalWeight: Double, model: SpeechModel, tuning: DecoderTuning,
                                          logFile: URL?) throws -> (decoder: PocketSphinxDecoder, check: PronunciationCheck) {
        let decoder = try PocketSphinxDecoder(model: model, search: nil, tuning: tuning, logFile: logFile)
        // The answers to a question too, so that it can be answered by voice.
        let sentences = language.languageModelSentences()
            + language.answerPhrases.map { answer in
                LanguageModelSentence(words: answer.lowercased().split(whereSeparator: { !($0.isLetter || $0 == "'") }).map(String.init), weight: 1)
            }
        let check = PronunciationCheck.run(RecognitionGrammar(commandJSGF: "", words: sentences.flatMap(\.words)), on: decoder)
        let missing = Set(check.missingWords)
        let counted = sentences.filter { !$0.words.contains(where: missing.contains) }
        // Counting the model and reading its ARPA text take seconds; the command model alone is
        // kept between starts in binary form (for exactly these sentences), read in a fraction of that.
        let cache = CommandLanguageModelCache()
        let cached = generalWeight == 0 ? cache.file(for: counted) : nil
        if let cached, (try? decoder.use(.languageModel(cached))) != nil { return (decoder, check) }
        let languageModel = NGramLanguageModel(sentences: counted.map { ($0.words, $0.weight) })
        if cached != nil { try? UserDirectories.ensureExists(cache.folder) }
        try decoder.use(.interpolatedLanguageModel(arpa: languageModel.arpa, general: generalWeight > 0 ? model.languageModel : nil,
                                                   generalWeight: generalWeight, keepBinaryAt: cached))
        return (decoder, check)
    }

    /// The listener's verdict on an utterance: the noise checks as always; with a companion
    /// decoder, speech either decoder is sure of is heard (the decision rule weighs the two).
    /// `ignoringNoise`: as if the background were quiet (what the recogniser alone got right).
    public func verdict(_ utterance: RecognizedUtterance, ignoringNoise: Bool = false) -> RecognitionVerdict {
        var confidence = confidence
        if ignoringNoise { confidence.minimumSignalToNoiseDecibels = -.infinity }
        if path == .neural { return confidence.neuralVerdict(utterance) }
        let verdict = confidence.verdict(utterance)
        if verdict == .unclear, utterance.companion?.isConfident == true { return .accepted }
        return verdict
    }

    /// Each decoder's words for an accepted utterance, where that decoder was sure of them.
    public func transcripts(of utterance: RecognizedUtterance) -> HeardTranscripts {
        let first = utterance.confidence >= confidence.acceptance && !utterance.text.isEmpty ? utterance.text : nil
        let second = utterance.companion.flatMap { $0.isConfident && !$0.text.isEmpty ? $0.text : nil }
        switch path {
        case .grammar: return HeardTranscripts(grammar: first, openSpeech: second)
        case .languageModel: return HeardTranscripts(grammar: nil, openSpeech: first)
        case .neural:
            var heard = HeardTranscripts(grammar: nil, openSpeech: first)
            heard.neuralConfidence = first == nil ? nil : utterance.confidence
            return heard
        }
    }
}

/// How commands are decoded: the neural recogniser (Moonshine, phrases favoured), the closed
/// grammar (only the language's exact phrases can be heard), or open speech with the command
/// n-gram model at a general-English weight.
public enum CommandDecodePath: Sendable, Equatable, CustomStringConvertible {
    case neural
    case grammar
    case languageModel(generalWeight: Double)

    /// "neural", "grammar", "ngram" (the command model alone) or "ngram:0.3" (30 % general English).
    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 1)
        switch parts.first {
        case "neural" where parts.count == 1: self = .neural
        case "grammar" where parts.count == 1: self = .grammar
        case "ngram":
            guard let weight = parts.count > 1 ? Double(parts[1]) : 0, (0...1).contains(weight) else { return nil }
            self = .languageModel(generalWeight: weight)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .neural: return "neural"
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

/// Where the command n-gram model is kept between starts, in sphinxbase's binary form. A file is
/// used only for exactly the sentences and weights it was counted from (its name is a hash of
/// them and of the counting's version); an unreadable one is counted again and written anew.
struct CommandLanguageModelCache {
    let folder: URL

    init(folder: URL = UserDirectories.cache().appendingPathComponent("command-ngram")) {
        self.folder = folder
    }

    /// Change when `NGramLanguageModel`'s counting or smoothing changes.
    static let version = "command-ngram 1"

    func file(for sentences: [LanguageModelSentence]) -> URL {
        // FNV-1a, 64 bits, twice with different offsets: a cache key, not a security check.
        var first: UInt64 = 0xcbf2_9ce4_8422_2325, second: UInt64 = 0x84222325_cbf29ce4
        func add(_ text: String) {
            for byte in text.utf8 {
                first = (first ^ UInt64(byte)) &* 0x100_0000_01b3
                second = (second ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        add(Self.version + "\n")
        // Sorted: the sentences come out of dictionaries in a different order at every start.
        for line in sentences.map({ $0.words.joined(separator: " ") + "\t\($0.weight)" }).sorted() { add(line + "\n") }
        return folder.appendingPathComponent(String(format: "%016llx%016llx-%d.lm.bin", first, second, sentences.count))
    }
}
