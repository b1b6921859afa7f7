import Foundation

/// What the listener pushes audio into and gets utterances out of (`NeuralUtteranceRecognizer`;
/// a protocol so that tests and benchmarks may replay or stand in for it).
public protocol UtteranceFinding: AnyObject {
    /// Seconds of audio pushed so far (the audio's own clock).
    var audioSeconds: Double { get }
    /// Whether an utterance is open now.
    var isHearingSpeech: Bool { get }
    /// Pushes one chunk of 16 kHz audio; returns the utterance that ended in it, if any.
    func push(_ chunk: UnsafeBufferPointer<Int16>) throws -> RecognizedUtterance?
    /// The end of the input: closes an utterance still open.
    func finish() throws -> RecognizedUtterance?
    /// Push-to-talk: the whole of `samples` is one utterance.
    func recognizeWhole(_ samples: [Int16]) throws -> RecognizedUtterance?
    /// Forgets what was heard so far.
    func reset() throws
}

extension UtteranceFinding {
    public func push(_ chunk: [Int16]) throws -> RecognizedUtterance? {
        try chunk.withUnsafeBufferPointer { try push($0) }
    }
}

/// Utterances found by Silero VAD (`SpeechEndpointer`) and transcribed by Moonshine. Keeps
/// `preRollWindows` of audio from before the detector opened, so that a first syllable the
/// detector was slow to call speech is not lost, and the background's level outside speech, so
/// that an utterance that could not be made out can be told apart as drowned by noise.
public final class NeuralUtteranceRecognizer: UtteranceFinding {
    public let detector: SileroSpeechDetector
    public let transcriber: MoonshineTranscriber
    public var endpointer: SpeechEndpointer
    /// 0.3 s before the detector opened: Silero opens a window or two into a word's onset.
    public var preRollWindows = 10
    /// Silence kept after the speech (Moonshine ends words better with a little).
    static let keptTrailingWindows = 4
    /// Transcribe ahead: once the speech has been followed by `keptTrailingWindows` of silence,
    /// the audio that will be transcribed if the silence lasts is exactly the audio heard so far,
    /// so it is transcribed then, while the end is still being waited out (0.26 s more), and the
    /// transcript is in hand when the end is confirmed. Speech that resumes throws it away; it
    /// is never used for anything but the same audio. Off: transcribed after the wait (the
    /// latency benchmark's comparison).
    public var transcribesAhead = true
    /// After how many windows of silence the transcript is made ahead (1…`keptTrailingWindows`).
    /// At `keptTrailingWindows` it is made of exactly the audio that would be transcribed after
    /// the wait; earlier, the silence still to come is stood in for by digital silence, so the
    /// transcript is of nearly the same audio and ready sooner. The first silent window: a
    /// transcription (encoder and 7-12 decoder steps) took 370-460 ms median in a release build
    /// on the busy 2-core machine, as long as the whole silence wait, so starting it 3 windows
    /// (96 ms) earlier is what brings the words in hand nearer the end of the wait. Measured on
    /// the development set (`bench/commands/spoken-dev.txt`, festival, espeak-ng en-us, Piper):
    /// 108/180 right against 106/180 from the 4th window, no more wrong actions, the differences
    /// single trials either way (BENCHMARKS.md, "Issue 35 (twenty-third session)"). What it costs:
    /// a transcript thrown away at every pause inside a command (CPU while someone speaks only).
    public var transcribesAheadAfterSilentWindows = 1

    private static let window = SileroSpeechDetector.windowSamples
    private var pending: [Float] = []
    private var preRoll: [Float] = []
    private var utterance: [Float] = []
    private var speechPower = 0.0
    private var speechPowerWindows = 0
    /// Mean square of the audio outside speech, averaged over about 2 s (64 windows).
    private var backgroundPower: Double?
    private var samplesPushed = 0
    private var speechStartSeconds: Double?
    /// The transcript made ahead of the end, and how many samples of `utterance` it is of.
    private var ahead: (samples: Int, transcript: Transcript)?
    /// Transcripts made ahead and thrown away because the speech went on (their CPU was spent for nothing).
    public private(set) var transcriptsThrownAway = 0

    public init(detector: SileroSpeechDetector, transcriber: MoonshineTranscriber, endpointer: SpeechEndpointer = SpeechEndpointer()) {
        self.detector = detector
        self.transcriber = transcriber
        self.endpointer = endpointer
    }

    public var audioSeconds: Double { Double(samplesPushed) / RecognizerAudio.sampleRateHz }
    public var isHearingSpeech: Bool { endpointer.isOpen }

    public func push(_ chunk: UnsafeBufferPointer<Int16>) throws -> RecognizedUtterance? {
        pending.reserveCapacity(pending.count + chunk.count)
        for sample in chunk { pending.append(Float(sample) / 32768) }
        var heard: RecognizedUtterance?
        var consumed = 0
        while pending.count - consumed >= Self.window {
            let window = pending[consumed..<consumed + Self.window]
            consumed += Self.window
            samplesPushed += Self.window
            if let utterance = try add(window) { heard = utterance }
        }
        pending.removeFirst(consumed)
        return heard
    }

    private func add(_ window: ArraySlice<Float>) throws -> RecognizedUtterance? {
        let probability = try detector.speechProbability(window)
        let power = window.reduce(0.0) { $0 + Double($1 * $1) } / Double(window.count)
        let event = endpointer.add(probability: probability, power: power)
        if endpointer.isOpen || event != nil {
            if event == .started {
                utterance = preRoll
                speechStartSeconds = audioSeconds - Double(Self.window) / RecognizerAudio.sampleRateHz
                speechPower = 0
                speechPowerWindows = 0
            }
            utterance += window
            if probability >= endpointer.startProbability {
                speechPower += power
                speechPowerWindows += 1
            }
            // Speech again: what was made ahead is not of the end.
            if endpointer.isOpen, endpointer.silentRun == 0, ahead != nil {
                ahead = nil
                transcriptsThrownAway += 1
            }
            let aheadAfter = min(max(1, transcribesAheadAfterSilentWindows), Self.keptTrailingWindows)
            if transcribesAhead, endpointer.isOpen, endpointer.silentRun == aheadAfter {
                let standIn = [Float](repeating: 0, count: (Self.keptTrailingWindows - aheadAfter) * Self.window)
                ahead = (utterance.count + standIn.count, try transcriber.transcribe(utterance + standIn))
            }
        } else {
            if probability < endpointer.endProbability {
                backgroundPower = backgroundPower.map { $0 + (power - $0) / 64 } ?? power
            }
            preRoll += window
            if preRoll.count > preRollWindows * Self.window { preRoll.removeFirst(preRoll.count - preRollWindows * Self.window) }
        }
        switch event {
        case .ended(_, let speechWindows, let trailing)?:
            let trim = max(0, trailing - Self.keptTrailingWindows) * Self.window
            return try close(audio: Array(utterance.dropLast(trim)), speechWindows: speechWindows)
        case .discarded?:
            utterance = []
            speechStartSeconds = nil
            ahead = nil
            return nil
        case .started?, nil:
            return nil
        }
    }

    public func finish() throws -> RecognizedUtterance? {
        defer { pending = [] }
        guard case .ended(_, let speechWindows, _)? = endpointer.finish() else {
            utterance = []
            speechStartSeconds = nil
            ahead = nil
            return nil
        }
        return try close(audio: utterance + pending, speechWindows: speechWindows)
    }

    public func recognizeWhole(_ samples: [Int16]) throws -> RecognizedUtterance? {
        try reset()
        var speechWindows = 0
        let audio = samples.map { Float($0) / 32768 }
        speechPower = 0
        speechPowerWindows = 0
        for start in stride(from: 0, to: audio.count - Self.window + 1, by: Self.window) {
            let window = audio[start..<start + Self.window]
            if try detector.speechProbability(window) >= endpointer.startProbability {
                speechWindows += 1
                speechPower += window.reduce(0.0) { $0 + Double($1 * $1) } / Double(window.count)
                speechPowerWindows += 1
            }
        }
        samplesPushed += samples.count
        speechStartSeconds = 0
        guard speechWindows >= endpointer.minimumSpeechWindows else { return nil }
        return try close(audio: audio, speechWindows: speechWindows)
    }

    public func reset() throws {
        try detector.reset()
        endpointer.reset()
        pending = []
        preRoll = []
        utterance = []
        speechStartSeconds = nil
        ahead = nil
    }

    private func close(audio: [Float], speechWindows: Int) throws -> RecognizedUtterance {
        let start = speechStartSeconds ?? audioSeconds
        utterance = []
        speechStartSeconds = nil
        let madeAhead = ahead.flatMap { $0.samples == audio.count ? $0.transcript : nil }
        ahead = nil
        let clock = ContinuousClock()
        let began = clock.now
        let transcript = try madeAhead ?? transcriber.transcribe(audio)
        let finishing = began.duration(to: clock.now)
        let text = Self.spokenText(transcript.text)
        let speech = speechPowerWindows > 0 ? speechPower / Double(speechPowerWindows) : 0
        let ratio: Double
        if let background = backgroundPower, background > 0 {
            ratio = speech > 0 ? 10 * log10(speech / background) : -.infinity
        } else {
            ratio = .infinity  // nothing heard before it but speech or digital silence
        }
        var heard = RecognizedUtterance(
            text: text, confidence: text.isEmpty ? 0 : transcript.confidence,
            speechStartSeconds: start, endDetectedSeconds: audioSeconds,
            finishingSeconds: Double(finishing.components.seconds) + Double(finishing.components.attoseconds) / 1e18,
            signalToNoiseDecibels: ratio, syllables: speechWindows)
        heard.transcription = TranscriptionReport(timing: transcript.timing, madeAhead: madeAhead != nil)
        heard.alternative = transcript.alternative
        return heard
    }

    /// The words as the listener and the command language take them: lower case, punctuation
    /// other than apostrophes and decimal points removed ("Stop detecting." → "stop detecting",
    /// "Set volume to 50%." → "set volume to 50 percent").
    static func spokenText(_ text: String) -> String {
        var result = ""
        var pendingSpace = false
        let characters = Array(text.lowercased().replacingOccurrences(of: "%", with: " percent"))
        for (index, character) in characters.enumerated() {
            let decimalPoint = character == "." && index > 0 && index + 1 < characters.count
                && characters[index - 1].isNumber && characters[index + 1].isNumber
            if character.isLetter || character.isNumber || character == "'" || decimalPoint {
                if pendingSpace, !result.isEmpty { result.append(" ") }
                pendingSpace = false
                result.append(character)
            } else {
                pendingSpace = true
            }
        }
        return result
    }
}
