import Foundation

/// One utterance the recogniser heard, with the audio-clock times that latency is measured on.
public struct RecognizedUtterance: Sendable, Equatable {
    public let text: String
    /// 0…1: how sure the recogniser is (see `RecognitionConfidence`).
    public let confidence: Double
    public let hypothesis: DecoderHypothesis
    /// Audio time (seconds from the start of the stream) when the detector first heard speech.
    public let speechStartSeconds: Double
    /// Audio time of the end of the chunk in which the detector declared the speech over.
    public let endDetectedSeconds: Double
    /// Processing time spent finishing the utterance once the end was detected (search, lattice).
    public let finishingSeconds: Double
    /// How far the speech stood above the background noise, in dB (see `SpeechLevelMeter`);
    /// +∞ over digital silence.
    public let signalToNoiseDecibels: Double
    /// Syllables seen in the level of the audio (see `SpeechLevelMeter.syllablesInUtterance`):
    /// what tells speech from a raised noise floor when the recogniser cannot. nil when not
    /// measured (an utterance made up by hand), taken as speech.
    public let syllables: Int?
    /// The second decoder's reading of the same audio, when two decode each utterance
    /// (`ListeningDecoding.agreement`); nil otherwise.
    public var companion: CompanionTranscript?
    /// The neural recogniser's transcription of it: where its time went, and whether it was
    /// made ahead, during the silence before the end was confirmed (nil for pocketsphinx).
    public var transcription: TranscriptionReport?
    /// Another reading of the same audio weighed by the model (`MoonshineTranscriber.alternative`); nil when none was asked for.
    public var alternative: AlternativeReading?

    public init(text: String, confidence: Double, hypothesis: DecoderHypothesis, speechStartSeconds: Double,
                endDetectedSeconds: Double, finishingSeconds: Double, signalToNoiseDecibels: Double, syllables: Int? = nil) {
        self.text = text
        self.confidence = confidence
        self.hypothesis = hypothesis
        self.speechStartSeconds = speechStartSeconds
        self.endDetectedSeconds = endDetectedSeconds
        self.finishingSeconds = finishingSeconds
        self.signalToNoiseDecibels = signalToNoiseDecibels
        self.syllables = syllables
    }
}

/// How the neural recogniser's transcript of an utterance was made (for the latency benchmark).
public struct TranscriptionReport: Sendable, Equatable, Codable {
    public var timing: TranscriptionTiming
    /// Made while the silence after the speech was still being waited out (`NeuralUtteranceRecognizer.transcribesAhead`).
    public var madeAhead: Bool

    public init(timing: TranscriptionTiming, madeAhead: Bool) {
        self.timing = timing
        self.madeAhead = madeAhead
    }
}

/// What a second decoder made of an utterance the first one's detector delimited: its words and
/// its own confidence (judged by its own `RecognitionConfidence`).
public struct CompanionTranscript: Sendable, Equatable {
    public let text: String
    public let confidence: Double
    /// Whether the confidence reaches the second decoder's own bar.
    public let isConfident: Bool

    public init(text: String, confidence: Double, isConfident: Bool) {
        self.text = text
        self.confidence = confidence
        self.isConfident = isConfident
    }
}

/// A second decoder fed the same audio as the first (whose detector alone delimits utterances),
/// finished when the first one's utterance closes.
public struct CompanionDecoder {
    public let decoder: PocketSphinxDecoder
    public let confidence: RecognitionConfidence

    public init(decoder: PocketSphinxDecoder, confidence: RecognitionConfidence) {
        self.decoder = decoder
        self.confidence = confidence
    }
}

/// Turns a stream of 16 kHz chunks into utterances: pocketsphinx's voice-activity detector
/// opens an utterance on speech and closes it after `DecoderTuning.postSpeechFrames` of silence,
/// and the decoder's hypothesis for it is returned at once. Keeps its own audio clock (samples
/// pushed), so files and microphones are timed the same way.
public final class UtteranceRecognizer {
    private let decoder: PocketSphinxDecoder
    private let confidence: RecognitionConfidence
    private let companion: CompanionDecoder?
    private var samplesPushed = 0
    private var speechStartSeconds: Double?
    private var levels = SpeechLevelMeter()
    /// Speech the detector missed: when its syllables were first counted, and the most counted.
    private var drownedSpeech: (startSeconds: Double, syllables: Int)?

    /// Syllables are looked for in this much audio outside utterances (in 10 ms frames): a short command.
    static let drownedSpeechWindowFrames = 150
    /// Speech the detector missed is reported only over a background at least this loud (mean
    /// square, full scale 1: −50 dBFS, well above a quiet room's microphone hiss), so that a
    /// distant voice in a quiet room is not taken for the user drowned by noise.
    static let noisyBackgroundPower = 1e-5

    public init(decoder: PocketSphinxDecoder, confidence: RecognitionConfidence = RecognitionConfidence(),
                companion: CompanionDecoder? = nil) throws {
        self.decoder = decoder
        self.confidence = confidence
        self.companion = companion
        try decoder.startUtterance()
        try companion?.decoder.startUtterance()
    }

    /// Seconds of audio pushed so far.
    public var audioSeconds: Double { Double(samplesPushed) / RecognizerAudio.sampleRateHz }

    /// Whether speech is being heard now (an utterance is open).
    public var isHearingSpeech: Bool { speechStartSeconds != nil }

    /// Pushes one chunk (20 ms is a good size); returns the utterance that ended in it, if any
    /// (with empty text and confidence 0 when the speech fitted nothing the decoder searches).
    public func push(_ chunk: UnsafeBufferPointer<Int16>) throws -> RecognizedUtterance? {
        try decoder.process(chunk)
        try companion?.decoder.process(chunk)
        samplesPushed += chunk.count
        let inSpeech = decoder.isInSpeech
        levels.add(chunk, inUtterance: inSpeech)
        if inSpeech, speechStartSeconds == nil { speechStartSeconds = audioSeconds }
        if inSpeech { drownedSpeech = nil }  // the detector heard it: its utterance reports it
        if !inSpeech, speechStartSeconds == nil { return try checkDrownedSpeech(ended: false) }
        guard !inSpeech, speechStartSeconds != nil else { return nil }
        return try closeUtterance()
    }

    /// In heavy noise pocketsphinx's detector adapts to the noise and never opens on a voice
    /// below it, so the user would hear nothing at all. Syllables in the level say someone
    /// spoke; once they stop (or the input ends) that is reported as an utterance with no words,
    /// for `RecognitionConfidence.verdict` to judge (too noisy, when the ratio is low).
    private func checkDrownedSpeech(ended: Bool) throws -> RecognizedUtterance? {
        let syllables = levels.syllablesOutsideUtterances(lastFrames: Self.drownedSpeechWindowFrames)
        if syllables >= confidence.minimumSyllablesInNoise, !ended {
            drownedSpeech = (drownedSpeech?.startSeconds ?? audioSeconds, max(syllables, drownedSpeech?.syllables ?? 0))
            return nil
        }
        guard let heard = drownedSpeech else { return nil }
        drownedSpeech = nil
        let frames = Int(((audioSeconds - heard.startSeconds) * 100).rounded()) + Self.drownedSpeechWindowFrames
        let background = levels.backgroundPower
        let ratio = levels.finishOutsideUtterances(lastFrames: frames)
        guard background >= Self.noisyBackgroundPower, ratio < confidence.minimumSignalToNoiseDecibels else { return nil }
        let nothing = DecoderHypothesis(text: "", posterior: 0, acousticScorePerFrame: -.greatestFiniteMagnitude, frameCount: 0)
        return RecognizedUtterance(text: "", confidence: 0, hypothesis: nothing, speechStartSeconds: heard.startSeconds,
                                   endDetectedSeconds: audioSeconds, finishingSeconds: 0, signalToNoiseDecibels: ratio,
                                   syllables: heard.syllables)
    }

    public func push(_ chunk: [Int16]) throws -> RecognizedUtterance? {
        try chunk.withUnsafeBufferPointer { try push($0) }
    }

    /// The end of the input: closes an utterance still open (speech cut off by the end of a file
    /// or by releasing push-to-talk).
    public func finish() throws -> RecognizedUtterance? {
        guard speechStartSeconds != nil else {
            let drowned = try checkDrownedSpeech(ended: true)
            levels.discardUtterance()
            _ = try decoder.endUtterance()
            try decoder.startUtterance()
            try restartCompanion()
            return drowned
        }
        return try closeUtterance()
    }

    /// Push-to-talk: the whole of `samples` is one utterance, bounded by the key press and
    /// release rather than by the detector's silence wait.
    public func recognizeWhole(_ samples: [Int16]) throws -> RecognizedUtterance? {
        try reset()
        try samples.withUnsafeBufferPointer { buffer in
            try decoder.process(buffer)
            try companion?.decoder.process(buffer)
            levels.add(buffer, inUtterance: true)
        }
        samplesPushed += samples.count
        speechStartSeconds = speechStartSeconds ?? 0
        return try closeUtterance()
    }

    /// Forgets what was heard so far (push-to-talk released without speech, or a new session).
    public func reset() throws {
        speechStartSeconds = nil
        drownedSpeech = nil
        levels.discardUtterance()
        try decoder.startUtterance()
        try restartCompanion()
    }

    private func restartCompanion() throws {
        guard let companion else { return }
        _ = try companion.decoder.endUtterance()
        try companion.decoder.startUtterance()
    }

    private func closeUtterance() throws -> RecognizedUtterance? {
        let start = speechStartSeconds ?? audioSeconds
        speechStartSeconds = nil
        let clock = ContinuousClock()
        let began = clock.now
        let decoded = try decoder.endUtterance()
        // The second decoder's search is finished at the same moment, over the same audio; its
        // time counts in the finishing time, as it delays the action.
        let companionDecoded = try companion.map { try ($0, $0.decoder.endUtterance()) }
        let finishing = began.duration(to: clock.now)
        try decoder.startUtterance()
        try companion?.decoder.startUtterance()
        // Speech that fits no sentence of the grammar still counts as heard: unclear, confidence 0,
        // so the listener asks the user to repeat instead of staying silent.
        let hypothesis = decoded ?? DecoderHypothesis(text: "", posterior: 0, acousticScorePerFrame: -.greatestFiniteMagnitude, frameCount: 0)
        let syllables = levels.syllablesInUtterance
        var heard = RecognizedUtterance(
            text: hypothesis.text, confidence: confidence.score(hypothesis), hypothesis: hypothesis,
            speechStartSeconds: start, endDetectedSeconds: audioSeconds,
            finishingSeconds: Double(finishing.components.attoseconds) / 1e18 + Double(finishing.components.seconds),
            signalToNoiseDecibels: levels.finishUtterance(), syllables: syllables)
        if let (companion, decoded) = companionDecoded {
            let score = decoded.map(companion.confidence.score) ?? 0
            heard.companion = CompanionTranscript(text: decoded?.text ?? "", confidence: score,
                                                  isConfident: score >= companion.confidence.acceptance)
        }
        return heard
    }
}
