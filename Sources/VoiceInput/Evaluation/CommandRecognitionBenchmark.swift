import AssistCore
import Foundation
import Media

/// A command as said in a test, and what it must be understood as.
public struct SpokenCommand: Sendable, Equatable, Codable {
    public let text: String
    /// The meaning to reach (an intent with its slots, as a comparable string); nil for speech
    /// that is no command and must do nothing.
    public let expected: String?

    public init(text: String, expected: String?) {
        self.text = text
        self.expected = expected
    }
}

/// The listening condition of a trial.
public struct TestCondition: Sendable, Hashable, Codable, CustomStringConvertible {
    public let noise: TestNoise?
    public let snrDecibels: Double

    public static let clean = TestCondition(noise: nil, snrDecibels: .infinity)
    public static func noisy(_ noise: TestNoise, snrDecibels: Double) -> TestCondition {
        TestCondition(noise: noise, snrDecibels: snrDecibels)
    }

    public var description: String {
        guard let noise else { return "clean" }
        return "\(noise.rawValue) noise at \(Int(snrDecibels)) dB SNR"
    }
}

/// One synthesised command through the recogniser.
public struct RecognitionTrial: Sendable, Codable {
    public let said: String
    /// The synthetic voice that said it (`TestVoice.name`).
    public let voice: String
    /// How the speech was decoded (`assist bench voice --decode`'s name).
    public let decoding: String
    /// Said as a command (false: speech that must do nothing).
    public let isCommand: Bool
    public let speakingRate: Double
    public let condition: String
    public let isClean: Bool
    /// What was recognised (utterances joined by " | " when the detector split the speech).
    public let heard: String
    public let confidence: Double
    public let understoodAs: String?
    /// The command understood and acted on is the one said (for a non-command: nothing was done).
    public let correct: Bool
    /// Not acted on, but the command said was asked about ("… ? Say yes or no."): right after a yes.
    public let askedAboutRightCommand: Bool
    /// A command was acted on, and it was not the one said: the failure that matters most.
    public let actedOnWrongCommand: Bool
    /// The listener refused the utterance as too noisy (the user hears why).
    public let refusedAsTooNoisy: Bool
    /// What the recogniser alone got right, before the noise check: its own accuracy.
    public let recognizedCorrectly: Bool
    /// The speech's estimated signal-to-noise ratio (dB; nil over digital silence).
    public let estimatedSNRDecibels: Double?
    /// From the end of the speech in the audio to the command being in hand (nil when the
    /// detector never closed the utterance before the file ended).
    public let latencyMilliseconds: Double?
    /// The part of the latency before the detector declared the speech over (its silence wait,
    /// and its lag in hearing the speech stop); the rest is processing.
    public var endDetectionMilliseconds: Double? = nil
    /// How the neural recogniser made the transcript acted on: its encoder and decoder times,
    /// and whether it was made ahead of the end.
    public var transcription: TranscriptionReport? = nil
    /// The understanding's time to decide on the transcript (patterns, then the sentence model),
    /// after `latencyMilliseconds`: the command is carried out only then.
    public var understandingMilliseconds: Double? = nil
}

/// Synthesises commands with festival at several rates, adds noise, replays each through the
/// command recogniser as live audio, and checks what was understood. The speech is framed by
/// 0.5 s of silence before (the detector learns the noise floor) and 1 s after.
public struct CommandRecognitionBenchmark {
    public var commands: [SpokenCommand]
    public var speakingRates: [Double]
    public var conditions: [TestCondition]
    /// The recogniser's words → meaning acted on (the listening decision); nil when nothing is done.
    public var understand: (HeardTranscripts) -> String?
    /// The recogniser's words → meaning asked about before acting (nil: none asked).
    public var askedAbout: (HeardTranscripts) -> String? = { _ in nil }
    /// The voices saying every command; babble is always festival's.
    public var voices: [any TestVoice] = [FestivalVoice()]
    public var babbleVoice = FestivalVoice()
    /// The recogniser's decoding, as trials name it.
    public var decoding = "neural"
    /// Push-to-talk: each trial's whole audio is one utterance (the key held from before the
    /// speech to after it), so the detector's end-of-speech decision is taken out of the measure.
    public var pushToTalk = false

    static let leadSeconds = 1.5, trailSeconds = 1.0

    /// Sentences said by the babble talkers (the Harvard sentences' style: none is a command).
    public static let babbleSentences = [
        "The birch canoe slid on the smooth planks.", "Glue the sheet to the dark blue background.",
        "It's easy to tell the depth of a well.", "These days a chicken leg is a rare dish.",
        "Rice is often served in round bowls.", "The juice of lemons makes fine punch.",
        "The box was thrown beside the parked truck.", "Four hours of steady work faced us.",
    ]

    public init(commands: [SpokenCommand], speakingRates: [Double], conditions: [TestCondition],
                understand: @escaping (String) -> String?) {
        self.init(commands: commands, speakingRates: speakingRates, conditions: conditions, decide: { understand($0.answerText) })
    }

    public init(commands: [SpokenCommand], speakingRates: [Double], conditions: [TestCondition],
                decide: @escaping (HeardTranscripts) -> String?) {
        self.commands = commands
        self.speakingRates = speakingRates
        self.conditions = conditions
        self.understand = decide
    }

    /// Runs every command × rate × condition; the synthetic audio is written under `folder`.
    public func run(recognizer: CommandRecognizer, workFolder folder: URL) throws -> [RecognitionTrial] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var spokenRequests: [(voice: String, request: SynthesisRequest, command: SpokenCommand)] = []
        for (voiceIndex, voice) in voices.enumerated() {
            var requests: [SynthesisRequest] = []
            for (index, command) in commands.enumerated() {
                for rate in speakingRates {
                    let request = SynthesisRequest(text: command.text, speakingRate: rate,
                                                   output: folder.appendingPathComponent("voice-\(voiceIndex)-command-\(index)-rate-\(rate).wav"))
                    requests.append(request)
                    spokenRequests.append((voice.name, request, command))
                }
            }
            try voice.synthesize(requests)
        }
        let needsBabble = conditions.contains { $0.noise == .babble }
        let babbleRequests = needsBabble ? Self.babbleSentences.enumerated().map { i, text in
            SynthesisRequest(text: text, speakingRate: 1, output: folder.appendingPathComponent("babble-\(i).wav"))
        } : []
        try babbleVoice.synthesize(babbleRequests)
        let babbleVoices = try babbleRequests.map { try Self.floatSamples($0.output) }

        let sampleRate = RecognizerAudio.sampleRateHz
        let spoken = try spokenRequests.map { voice, request, command in
            (voice, request, command, Self.padded(try Self.floatSamples(request.output), sampleRate: sampleRate))
        }
        var trials: [RecognitionTrial] = []
        var trialNumber: UInt64 = 0
        // One condition at a time, as a user stays in one place: the recogniser's measure of
        // the background carries across utterances, and interleaving clean and noisy trials
        // would start every trial with another room's.
        for condition in conditions {
            for (voice, request, command, speech) in spoken {
                trialNumber += 1
                let speechEnd = NoiseMixer.speechEndSeconds(speech, sampleRateHz: sampleRate)
                let audio: [Float]
                switch condition.noise {
                case nil: audio = speech
                case .white?:
                    audio = NoiseMixer.mix(speech: speech, noise: NoiseMixer.whiteNoise(count: speech.count, seed: trialNumber),
                                           snrDecibels: condition.snrDecibels, sampleRateHz: sampleRate)
                case .babble?:
                    let babble = NoiseMixer.babble(from: babbleVoices, talkers: 6, count: speech.count, seed: trialNumber)
                    audio = NoiseMixer.mix(speech: speech, noise: babble, snrDecibels: condition.snrDecibels, sampleRateHz: sampleRate)
                }
                try recognizer.utterances.reset()
                let heard: [ReplayedUtterance]
                if pushToTalk {
                    let whole = try recognizer.utterances.recognizeWhole(RecognizerAudio.toInt16(audio))
                    heard = whole.map { [ReplayedUtterance(utterance: $0, readySeconds: $0.endDetectedSeconds + $0.finishingSeconds)] } ?? []
                } else {
                    heard = try LiveReplay().run(RecognizerAudio.toInt16(audio), through: recognizer.utterances)
                }
                let accepted = heard.filter { recognizer.verdict($0.utterance) == .accepted }
                func words(_ heard: ReplayedUtterance) -> HeardTranscripts { recognizer.transcripts(of: heard.utterance) }
                let clock = ContinuousClock()
                let understandingStarted = clock.now
                let understood = accepted.count == 1 ? understand(words(accepted[0])) : nil
                let understandingTook = understandingStarted.duration(to: clock.now)
                let asked = accepted.count == 1 && understood == nil ? askedAbout(words(accepted[0])) : nil
                let recognized = heard.filter { recognizer.verdict($0.utterance, ignoringNoise: true) == .accepted }
                let recognizedMeaning = recognized.count == 1 ? understand(words(recognized[0])) : nil
                let snr = heard.map(\.utterance.signalToNoiseDecibels).filter { !$0.isNaN }.max()
                let closedByDetector = accepted.first.map { $0.utterance.endDetectedSeconds < Double(audio.count) / sampleRate } ?? false
                trials.append(RecognitionTrial(
                    said: command.text, voice: voice, decoding: decoding, isCommand: command.expected != nil, speakingRate: request.speakingRate, condition: condition.description,
                    isClean: condition.noise == nil,
                    heard: heard.map(\.utterance.text)
                        .joined(separator: " | "),
                    confidence: heard.map(\.utterance.confidence).max() ?? 0,
                    understoodAs: understood, correct: understood == command.expected,
                    askedAboutRightCommand: asked != nil && asked == command.expected,
                    actedOnWrongCommand: accepted.contains { heard in understand(words(heard)).map { $0 != command.expected } ?? false },
                    refusedAsTooNoisy: heard.contains { recognizer.verdict($0.utterance) == .tooNoisy },
                    recognizedCorrectly: recognizedMeaning == command.expected,
                    estimatedSNRDecibels: snr.flatMap { $0.isFinite ? ($0 * 10).rounded() / 10 : nil },
                    latencyMilliseconds: closedByDetector ? (accepted[0].readySeconds - speechEnd) * 1000 : nil,
                    endDetectionMilliseconds: closedByDetector ? (accepted[0].utterance.endDetectedSeconds - speechEnd) * 1000 : nil,
                    transcription: accepted.first?.utterance.transcription,
                    understandingMilliseconds: accepted.count == 1 ? understandingTook.seconds * 1000 : nil))
            }
        }
        return trials
    }

    static func floatSamples(_ url: URL) throws -> [Float] {
        let buffer = try AudioFile.read(url)
        let mono = RecognizerAudio.mixToMono(buffer.samples, channelCount: buffer.channelCount)
        return RecognizerAudio.resample(mono, from: buffer.sampleRate, to: RecognizerAudio.sampleRateHz)
    }

    static func padded(_ speech: [Float], sampleRate: Double) -> [Float] {
        [Float](repeating: 0, count: Int(leadSeconds * sampleRate)) + speech + [Float](repeating: 0, count: Int(trailSeconds * sampleRate))
    }
}

/// Accuracy and latency over trials.
public struct RecognitionSummary: Sendable, Codable, Equatable {
    public let trials: Int
    public let correct: Int
    /// Trials where a command other than the one said was acted on.
    public let wrongActions: Int
    /// Trials refused as too noisy.
    public let refusedAsTooNoisy: Int
    /// Trials the recogniser alone got right (before the noise check).
    public let recognizedCorrectly: Int
    /// Median estimated SNR of the trials (dB; nil when all were over digital silence).
    public let medianEstimatedSNRDecibels: Double?
    public let medianLatencyMilliseconds: Double?
    public let worstLatencyMilliseconds: Double?
    /// The 95th percentile of the latency (nearest rank), the second latency target.
    public var percentile95LatencyMilliseconds: Double? = nil
    /// Where the latency of the right trials went (medians): waiting for the detector to declare
    /// the end, then Moonshine's encoder and decoder (the transcript's own times, wherever they
    /// fell: made ahead, they overlap the wait).
    public var latencyParts: LatencyParts? = nil
    /// Trials whose utterance the detector did not close before the audio ended (no latency).
    public let unclosed: Int

    /// Not acted on, but the command said was asked about (carried out after "yes").
    public let askedAboutRightCommand: Int

    public var accuracy: Double { trials == 0 ? 0 : Double(correct) / Double(trials) }

    public init(_ trials: [RecognitionTrial]) {
        self.trials = trials.count
        correct = trials.filter(\.correct).count
        askedAboutRightCommand = trials.filter(\.askedAboutRightCommand).count
        wrongActions = trials.filter(\.actedOnWrongCommand).count
        refusedAsTooNoisy = trials.filter(\.refusedAsTooNoisy).count
        recognizedCorrectly = trials.filter(\.recognizedCorrectly).count
        let estimates = trials.compactMap(\.estimatedSNRDecibels).sorted()
        medianEstimatedSNRDecibels = estimates.isEmpty ? nil : estimates[estimates.count / 2]
        let latencies = trials.filter(\.correct).compactMap(\.latencyMilliseconds).sorted()
        medianLatencyMilliseconds = latencies.isEmpty ? nil : latencies[latencies.count / 2]
        worstLatencyMilliseconds = latencies.last
        unclosed = trials.filter { $0.correct && $0.latencyMilliseconds == nil }.count
        percentile95LatencyMilliseconds = NearestRank.percentile95(latencies)
        let timed = trials.filter { $0.correct && $0.latencyMilliseconds != nil }
        latencyParts = LatencyParts(timed)
    }
}

/// Medians of where the latency of some trials went (nil when none has the parts measured).
public struct LatencyParts: Sendable, Codable, Equatable {
    public let endDetectionMilliseconds: Double
    public let encoderMilliseconds: Double
    public let decoderMilliseconds: Double
    public let decoderSteps: Int
    public let encodedAudioSeconds: Double
    public let understandingMilliseconds: Double?
    /// The latency with the understanding's time added (end of speech → command decided), median and 95th percentile.
    public let decidedMedianMilliseconds: Double?
    public let decidedPercentile95Milliseconds: Double?
    /// Trials whose transcript was made ahead of the end.
    public let madeAhead: Int

    init?(_ trials: [RecognitionTrial]) {
        let reports = trials.compactMap(\.transcription)
        let waits = trials.compactMap(\.endDetectionMilliseconds)
        guard !reports.isEmpty, !waits.isEmpty else { return nil }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        endDetectionMilliseconds = median(waits)
        encoderMilliseconds = median(reports.map { $0.timing.encoderSeconds * 1000 })
        decoderMilliseconds = median(reports.map { $0.timing.decoderSeconds * 1000 })
        decoderSteps = Int(median(reports.map { Double($0.timing.decoderSteps) }))
        encodedAudioSeconds = median(reports.map(\.timing.encodedAudioSeconds))
        madeAhead = reports.filter(\.madeAhead).count
        let understanding = trials.compactMap(\.understandingMilliseconds)
        understandingMilliseconds = understanding.isEmpty ? nil : median(understanding)
        let decided = trials.compactMap { trial in trial.latencyMilliseconds.flatMap { latency in trial.understandingMilliseconds.map { latency + $0 } } }.sorted()
        decidedMedianMilliseconds = decided.isEmpty ? nil : decided[decided.count / 2]
        decidedPercentile95Milliseconds = NearestRank.percentile95(decided)
    }
}
