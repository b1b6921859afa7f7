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
