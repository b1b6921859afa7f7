import AssistCore
import Commands
import Foundation

/// The recogniser for commands: Silero VAD finds utterances and Moonshine base-en transcribes
/// them with the command language's phrases favoured; and the verdict on each utterance.
public final class CommandRecognizer {
    public let utterances: any UtteranceFinding
    public let confidence: RecognitionConfidence

    /// The phrases favoured (`PhraseBias`) are the command language's sentences
    /// (`CommandLanguage.languageModelSentences`), the answers, and `extraPhrases` (the wake
    /// phrase). `confidence.acceptance` is the bar on Moonshine's geometric-mean token probability.
    /// `decoderThreadCount`: Moonshine's decoder's threads (`MoonshineTranscriber.decoderThreadCount`; 0: ONNX Runtime's default).
    /// `onnxCopies`: `MoonshineTranscriber`'s (false only for the benchmark's `neural-ort`).
    public init(neural files: SpeechModelFiles, language: CommandLanguage, extraPhrases: [String] = [],
                confidence: RecognitionConfidence = .neural, bias: Bool = true,
                decoderThreadCount: Int = MoonshineTranscriber.decoderThreadCount, onnxCopies: Bool = true) throws {
        let detector = try SileroSpeechDetector(modelAt: files.voiceActivity)
        let phrases = language.languageModelSentences().map { $0.words.joined(separator: " ") } + language.answerPhrases + extraPhrases
        let transcriber = try MoonshineTranscriber(files: files, bias: bias ? PhraseBias(phrases: phrases) : .none,
                                                   decoderThreadCount: decoderThreadCount, onnxCopies: onnxCopies)
        self.confidence = confidence
        utterances = NeuralUtteranceRecognizer(detector: detector, transcriber: transcriber)
    }

    /// The listener's verdict on an utterance.
    /// `ignoringNoise`: as if the background were quiet (what the recogniser alone got right).
    public func verdict(_ utterance: RecognizedUtterance, ignoringNoise: Bool = false) -> RecognitionVerdict {
        var confidence = confidence
        if ignoringNoise { confidence.minimumSignalToNoiseDecibels = -.infinity }
        return confidence.neuralVerdict(utterance)
    }

    /// The words of an accepted utterance, where the recogniser was sure of them, and how sure.
    public func transcripts(of utterance: RecognizedUtterance) -> HeardTranscripts {
        let sure = utterance.confidence >= confidence.acceptance && !utterance.text.isEmpty
        return HeardTranscripts(sure ? utterance.text : nil, confidence: sure ? utterance.confidence : nil)
    }
}
