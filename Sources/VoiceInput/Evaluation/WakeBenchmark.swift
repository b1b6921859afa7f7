import AssistCore
import Foundation
import Media

/// One way the wake phrase is said in the wake benchmark: a list line
/// "<text> | <speaking rate> | <noise>", the noise "clean" or "white 20" / "babble 20" (dB SNR).
public struct WakeRendering: Sendable, Equatable, Codable {
    public let text: String
    public let speakingRate: Double
    public let condition: TestCondition

    public init(text: String, speakingRate: Double, condition: TestCondition) {
        self.text = text
        self.speakingRate = speakingRate
        self.condition = condition
    }

    /// A list's lines that are not one rendering, by line number (1-based).
    public struct BadLine: UserFacingError, Equatable {
        public let number: Int
        public let line: String
        public var userMessage: String {
            "Line \(number) of the wake list (“\(line)”) is not “<text> | <rate 0.3 to 3> | clean, white <dB> or babble <dB>”."
        }
    }

    /// The renderings of a list: blank lines and # comments skipped.
    public static func parse(_ text: String) throws -> [WakeRendering] {
        var renderings: [WakeRendering] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let bad = BadLine(number: index + 1, line: line)
            let fields = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 3, !fields[0].isEmpty, let rate = Double(fields[1]), rate > 0.3, rate < 3 else { throw bad }
            let noise = fields[2].split(separator: " ").map(String.init)
            let condition: TestCondition
            switch (noise.first, noise.count) {
            case ("clean"?, 1): condition = .clean
            case (let name?, 2):
                guard let kind = TestNoise(rawValue: name), let snr = Double(noise[1]), snr > -20, snr < 80 else { throw bad }
                condition = .noisy(kind, snrDecibels: snr)
            default: throw bad
            }
            renderings.append(WakeRendering(text: fields[0], speakingRate: rate, condition: condition))
        }
        return renderings
    }
}

/// One rendering of the phrase through the spotter.
public struct WakeTrial: Sendable, Codable, Equatable {
    public let voice: String
    public let said: String
    public let speakingRate: Double
    public let condition: String
    /// What the spotter heard, utterance by utterance.
    public let heard: [String]
    /// How many times it woke (1 is right; more is a repeated wake).
    public let wakes: Int
    /// From the end of the phrase's speech to the wake: the detector's wait on the audio clock
    /// plus every bit of processing from that audio on (an upper bound of what a live listener
    /// waits: live, the transcript is made during the wait). nil when not woken.
    public let latencyMilliseconds: Double?
    /// Of which the detector's wait for silence (audio clock).
    public let endDetectionMilliseconds: Double?

    public var woken: Bool { wakes > 0 }

    /// The trial from the wakes heard in its audio: each wake's audio time and wall-clock time
    /// past the chunk at the end of the phrase's speech (`speechEndSeconds`).
    public init(voice: String, rendering: WakeRendering, heard: [String], wakes: [(audioSeconds: Double, processingSeconds: Double)],
                speechEndSeconds: Double) {
        self.voice = voice
        said = rendering.text
        speakingRate = rendering.speakingRate
        condition = rendering.condition.description
        self.heard = heard
        self.wakes = wakes.count
        let first = wakes.first
        endDetectionMilliseconds = first.map { ($0.audioSeconds - speechEndSeconds) * 1000 }
        latencyMilliseconds = first.map { ($0.audioSeconds - speechEndSeconds + $0.processingSeconds) * 1000 }
    }
}

/// A wake during speech without the phrase.
public struct FalseWake: Sendable, Codable, Equatable {
    public let voice: String
    /// Audio time in that voice's stream.
    public let audioSeconds: Double
    /// What was heard (the utterance that woke it).
    public let heard: String
    /// The sentence said nearest before the wake.
    public let said: String
}

/// The speech-without-the-phrase part for one voice.
public struct WakeFalseAlarmRun: Sendable, Codable, Equatable {
    public let voice: String
    public let sentences: Int
    public let audioSeconds: Double
    public let speechSeconds: Double
    public let utterancesTranscribed: Int
    public let falseWakes: [FalseWake]
    /// The utterances checked against the phrase (`WakePhraseCheck`), woken or not, as heard and weighed.
    public let checked: [String]
    /// Process CPU time (all threads, ONNX Runtime's included) spent listening to the stream.
    public let cpuSeconds: Double
}

/// Measures the wake phrase spotter (`WakePhraseSpotter`) as issue 35 item 6 states its target:
/// the phrase said in several voices, each rendering on its own with silence around it (woken or
/// not, and how soon), and a long stream per voice of other speech with noise and silences
/// between, in which every wake is false. Speech is synthesised by the `TestVoice`s; babble is
/// festival's, as in the command benchmark.
public struct WakeBenchmark {
    public var voices: [any TestVoice]
    public var renderings: [WakeRendering]
    /// Sentences without the phrase, each said once by each voice.
    public var sentences: [String]
    /// The speech stream's noise level: white noise and babble in turn at this SNR, with clean stretches.
    public var sentenceSNRDecibels: Double = 10
    /// Silence (or noise) around each rendering and between sentences.
    public static let leadSeconds = 1.5, trailSeconds = 1.5
    public static let gapSeconds: ClosedRange<Double> = 1...3
    public var babbleVoice: any TestVoice = FestivalVoice()
    /// Said before each step (synthesis, each voice's stream) on long runs.
    public var progress: (String) -> Void = { _ in }

    public init(voices: [any TestVoice], renderings: [WakeRendering], sentences: [String]) {
        self.voices = voices
        self.renderings = renderings
        self.sentences = sentences
    }

    public struct Result: Sendable, Codable, Equatable {
        public let trials: [WakeTrial]
        public let falseAlarms: [WakeFalseAlarmRun]
    }

    /// Runs both parts, the audio written under `folder` (which it creates).
    public func run(spotter: WakePhraseSpotter, workFolder folder: URL) throws -> Result {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let rate = RecognizerAudio.sampleRateHz
        progress("Synthesising the babble")
        let babbleRequests = CommandRecognitionBenchmark.babbleSentences.enumerated().map { i, text in
            SynthesisRequest(text: text, speakingRate: 1, output: folder.appendingPathComponent("babble-\(i).wav"))
        }
        try babbleVoice.synthesize(babbleRequests)
        let babble = try babbleRequests.map { try Self.samples($0.output) }
        var seed: UInt64 = 0
        func noisy(_ audio: [Float], _ condition: TestCondition) -> [Float] {
            seed += 1
            switch condition.noise {
            case nil: return audio
            case .white?:
                return NoiseMixer.mix(speech: audio, noise: NoiseMixer.whiteNoise(count: audio.count, seed: seed),
                                      snrDecibels: condition.snrDecibels, sampleRateHz: rate)
            case .babble?:
                return NoiseMixer.mix(speech: audio, noise: NoiseMixer.babble(from: babble, talkers: 6, count: audio.count, seed: seed),
                                      snrDecibels: condition.snrDecibels, sampleRateHz: rate)
            }
        }
        var trials: [WakeTrial] = []
        var falseAlarms: [WakeFalseAlarmRun] = []
        for (voiceIndex, voice) in voices.enumerated() {
            progress("\(voice.name): synthesising \(renderings.count) renderings of the phrase and \(sentences.count) sentences")
            let wakeRequests = renderings.enumerated().map { i, rendering in
                SynthesisRequest(text: rendering.text, speakingRate: rendering.speakingRate,
                                 output: folder.appendingPathComponent("voice-\(voiceIndex)-wake-\(i).wav"))
            }
            let sentenceRequests = sentences.enumerated().map { i, text in
                SynthesisRequest(text: text, speakingRate: Self.sentenceRate(i),
                                 output: folder.appendingPathComponent("voice-\(voiceIndex)-sentence-\(i).wav"))
            }
            try voice.synthesize(wakeRequests + sentenceRequests)
            for (rendering, request) in zip(renderings, wakeRequests) {
                let speech = try Self.samples(request.output)
                let lead = Int(Self.leadSeconds * rate)
                let audio = noisy(Self.silence(lead) + speech + Self.silence(Int(Self.trailSeconds * rate)), rendering.condition)
                let speechEnd = Double(lead) / rate + NoiseMixer.speechEndSeconds(speech, sampleRateHz: rate)
                let replay = TimedReplay(RecognizerAudio.toInt16(audio))
                var heard: [String] = []
                var wakes: [(audioSeconds: Double, processingSeconds: Double)] = []
                spotter.onUtterance = { heard.append(Self.described($0)) }
                try spotter.listen(to: replay) { seconds in
                    wakes.append((seconds, replay.secondsSinceHandingOut(audioSeconds: speechEnd)))
                    return true
                }
                trials.append(WakeTrial(voice: voice.name, rendering: rendering, heard: heard, wakes: wakes, speechEndSeconds: speechEnd))
            }
            progress("\(voice.name): listening to \(sentences.count) sentences without the phrase")
            var generator = SplitMix64(seed: UInt64(voiceIndex) + 1)
            var stream = Self.silence(Int(Self.leadSeconds * rate))
            var starts: [(seconds: Double, text: String)] = []
            var speechSeconds = 0.0
            for (index, (text, request)) in zip(sentences, sentenceRequests).enumerated() {
                let speech = try Self.samples(request.output)
                speechSeconds += Double(speech.count) / rate
                let gap = Self.silence(Int(Double.random(in: Self.gapSeconds, using: &generator) * rate))
                starts.append((Double(stream.count) / rate, text))
                stream += noisy(speech + gap, Self.sentenceCondition(index + voiceIndex, snrDecibels: sentenceSNRDecibels))
            }
            var heardCount = 0
            var woken: [FalseWake] = []
            var checked: [String] = []
            spotter.onUtterance = { utterance in
                heardCount += 1
                if utterance.alternative != nil { checked.append(Self.described(utterance)) }
            }
            let cpuStart = Self.processCPUSeconds()
            try spotter.listen(to: TimedReplay(RecognizerAudio.toInt16(stream)), heard: { seconds, text in
                let said = starts.last(where: { $0.seconds <= seconds })?.text ?? ""
                woken.append(FalseWake(voice: voice.name, audioSeconds: seconds, heard: checked.last ?? text, said: said))
                return true
            })
            falseAlarms.append(WakeFalseAlarmRun(voice: voice.name, sentences: sentences.count, audioSeconds: Double(stream.count) / rate,
                                                 speechSeconds: speechSeconds, utterancesTranscribed: heardCount, falseWakes: woken,
                                                 checked: checked,
                                                 cpuSeconds: Self.processCPUSeconds() - cpuStart))
            spotter.onUtterance = nil
        }
        return Result(trials: trials, falseAlarms: falseAlarms)
    }

    /// An utterance as heard, with the phrase's reading and its weight when one was checked.
    static func described(_ utterance: RecognizedUtterance) -> String {
        guard let alternative = utterance.alternative, alternative.text != utterance.text else { return utterance.text }
        return utterance.text + String(format: " [as “%@”: %.1f nats]", alternative.text, alternative.logProbabilityGap)
    }

    /// The sentences' speaking rates in turn, three sentences each: 1, 0.9, 1.15.
    static func sentenceRate(_ index: Int) -> Double { [1.0, 0.9, 1.15][(index / 3) % 3] }

    /// The sentences' conditions in turn: clean, white noise, babble.
    static func sentenceCondition(_ index: Int, snrDecibels: Double) -> TestCondition {
        [.clean, .noisy(.white, snrDecibels: snrDecibels), .noisy(.babble, snrDecibels: snrDecibels)][index % 3]
    }

    static func silence(_ count: Int) -> [Float] { [Float](repeating: 0, count: count) }

    /// A synthesised file as 16 kHz mono samples.
    static func samples(_ url: URL) throws -> [Float] {
        RecognizerAudio.samples(from: try AudioFile.read(url)).map { Float($0) / 32_768 }
    }

    /// CPU time of the whole process (every thread: ONNX Runtime's pool too).
    static func processCPUSeconds() -> Double {
        var time = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return 0 }
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}

/// The wake benchmark's totals, judged against issue 35's targets.
public struct WakeSummary: Sendable, Codable, Equatable {
    public let renderings: Int
    public let woken: Int
    /// Renderings that woke it more than once.
    public let repeatedWakes: Int
    public let medianLatencyMilliseconds: Double?
    public let worstLatencyMilliseconds: Double?
    public let medianEndDetectionMilliseconds: Double?
    public let falseWakes: Int
    public let audioMinutes: Double
    public let speechMinutes: Double
    /// Listening CPU over audio time, in % of one core.
    public let cpuPercentOfOneCore: Double?
    /// Issue 35's target: woken on at least 95 % of the renderings.
    public let wokenOften: Bool
    /// Issue 35's target: no false wake in 30 minutes or more of speech and noise.
    public let neverFalselyWoken: Bool

    public init(trials: [WakeTrial], falseAlarms: [WakeFalseAlarmRun]) {
        renderings = trials.count
        woken = trials.filter(\.woken).count
        repeatedWakes = trials.filter { $0.wakes > 1 }.count
        let latencies = trials.compactMap(\.latencyMilliseconds).sorted()
        medianLatencyMilliseconds = Self.median(latencies)
        worstLatencyMilliseconds = latencies.last
        medianEndDetectionMilliseconds = Self.median(trials.compactMap(\.endDetectionMilliseconds).sorted())
        falseWakes = falseAlarms.map(\.falseWakes.count).reduce(0, +)
        let audioSeconds = falseAlarms.map(\.audioSeconds).reduce(0, +)
        audioMinutes = audioSeconds / 60
        speechMinutes = falseAlarms.map(\.speechSeconds).reduce(0, +) / 60
        cpuPercentOfOneCore = audioSeconds > 0 ? falseAlarms.map(\.cpuSeconds).reduce(0, +) / audioSeconds * 100 : nil
        wokenOften = renderings > 0 && Double(woken) >= 0.95 * Double(renderings)
        neverFalselyWoken = falseWakes == 0 && audioMinutes >= 30
    }

    /// The middle of sorted values (the mean of the two middle ones when even); nil when none.
    static func median(_ sorted: [Double]) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// Audio handed out in 20 ms chunks as fast as asked for, noting when each chunk was handed out,
/// so that the processing after a point in the audio can be timed.
final class TimedReplay: SpeechAudioSource {
    let samples: [Int16]
    private var position = 0
    private var handedOut: [ContinuousClock.Instant] = []
    private let clock = ContinuousClock()

    init(_ samples: [Int16]) { self.samples = samples }

    var isRecording: Bool { true }

    func nextChunk() throws -> [Int16]? {
        guard position < samples.count else { return nil }
        let end = min(position + LiveReplay.chunkSamples, samples.count)
        defer { position = end }
        handedOut.append(clock.now)
        return Array(samples[position..<end])
    }

    func stop() { position = samples.count }

    /// Wall-clock seconds since the chunk holding `audioSeconds` was handed out (0 if it was not yet).
    func secondsSinceHandingOut(audioSeconds: Double) -> Double {
        let index = Int(audioSeconds * RecognizerAudio.sampleRateHz) / LiveReplay.chunkSamples
        guard handedOut.indices.contains(index) else { return 0 }
        return handedOut[index].duration(to: clock.now).seconds
    }
}
