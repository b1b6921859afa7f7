import Foundation

/// One utterance the recogniser heard, with the audio-clock times that latency is measured on.
public struct RecognizedUtterance: Sendable, Equatable {
    public let text: String
    /// 0…1: how sure the recogniser is of the words (Moonshine's geometric-mean token
    /// probability; see `RecognitionConfidence`).
    public let confidence: Double
    /// Audio time (seconds from the start of the stream) when the detector first heard speech.
    public let speechStartSeconds: Double
    /// Audio time of the end of the chunk in which the detector declared the speech over.
    public let endDetectedSeconds: Double
    /// Processing time spent finishing the utterance once the end was detected (the transcription, unless made ahead).
    public let finishingSeconds: Double
    /// How far the speech stood above the background noise, in dB (the speech windows' power
    /// over the background's, as `NeuralUtteranceRecognizer` measures them); +∞ over digital silence.
    public let signalToNoiseDecibels: Double
    /// The speech detector's windows of speech in it: what tells speech from a raised noise
    /// floor (`RecognitionConfidence.minimumSyllablesInNoise`). nil when not measured (an
    /// utterance made up by hand), taken as speech.
    public let syllables: Int?
    /// The recogniser's transcription of it: where its time went, and whether it was made
    /// ahead, during the silence before the end was confirmed (nil when made up by hand).
    public var transcription: TranscriptionReport?
    /// Another reading of the same audio weighed by the model (`MoonshineTranscriber.alternative`); nil when none was asked for.
    public var alternative: AlternativeReading?

    public init(text: String, confidence: Double, speechStartSeconds: Double,
                endDetectedSeconds: Double, finishingSeconds: Double, signalToNoiseDecibels: Double, syllables: Int? = nil) {
        self.text = text
        self.confidence = confidence
        self.speechStartSeconds = speechStartSeconds
        self.endDetectedSeconds = endDetectedSeconds
        self.finishingSeconds = finishingSeconds
        self.signalToNoiseDecibels = signalToNoiseDecibels
        self.syllables = syllables
    }
}

/// How the recogniser's transcript of an utterance was made (for the latency benchmark).
public struct TranscriptionReport: Sendable, Equatable, Codable {
    public var timing: TranscriptionTiming
    /// Made while the silence after the speech was still being waited out (`NeuralUtteranceRecognizer.transcribesAhead`).
    public var madeAhead: Bool

    public init(timing: TranscriptionTiming, madeAhead: Bool) {
        self.timing = timing
        self.madeAhead = madeAhead
    }
}
