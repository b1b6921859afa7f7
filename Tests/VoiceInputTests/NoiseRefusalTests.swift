import Foundation
import TestSupport
import Media
import Testing
@testable import VoiceInput

@Suite("Speech over noise: the level meter and the too-noisy refusal", .serialized)
struct NoiseRefusalTests {
    static let rate = 16_000.0

    func tone(seconds: Double, amplitude: Float) -> [Float] {
        (0..<Int(Self.rate * seconds)).map { amplitude * Float(sin(2 * Double.pi * 300 * Double($0) / Self.rate)) }
    }

    /// Meters `samples` as the recogniser does: 20 ms chunks, the ones in `utterance` (seconds) marked.
    func measuredSNR(_ samples: [Float], utterance: ClosedRange<Double>) -> Double {
        var meter = SpeechLevelMeter()
        let pcm = RecognizerAudio.toInt16(samples)
        for start in stride(from: 0, to: pcm.count, by: 320) {
            let chunk = Array(pcm[start..<min(start + 320, pcm.count)])
            let inside = utterance.contains(Double(start) / Self.rate)
            chunk.withUnsafeBufferPointer { meter.add($0, inUtterance: inside) }
        }
        return meter.finishUtterance()
    }

    @Test("speech in steady noise is measured within 1 dB of the ratio it was mixed at", arguments: [5.0, 10, 20, 30])
    func measuresMixedRatio(snr: Double) {
        let silence = [Float](repeating: 0, count: Int(Self.rate))
        let speech = silence + tone(seconds: 1, amplitude: 0.3) + silence
        let noisy = NoiseMixer.mix(speech: speech, noise: NoiseMixer.whiteNoise(count: speech.count, seed: 3),
                                   snrDecibels: snr, sampleRateHz: Self.rate)
        let measured = measuredSNR(noisy, utterance: 0.9...2.1)
        #expect(abs(measured - snr) < 1, "mixed at \(snr) dB, measured \(measured) dB")
    }

    @Test("digital silence around speech is infinitely far below it; an utterance of background alone is not above it")
    func extremes() {
        let silence = [Float](repeating: 0, count: Int(Self.rate))
        #expect(measuredSNR(silence + tone(seconds: 1, amplitude: 0.3) + silence, utterance: 0.9...2.1) == .infinity)
        let noise = NoiseMixer.whiteNoise(count: Int(Self.rate * 3), seed: 5).map { $0 * 0.05 }
        #expect(measuredSNR(noise, utterance: 1...2) < 3)
    }

    @Test("the noise check comes first: a confident command heard at 10 dB is refused, at 30 dB it is accepted")
    func verdicts() {
        let confident = DecoderHypothesis(text: "scan now", posterior: 1, acousticScorePerFrame: -5, frameCount: 80)
        func utterance(snr: Double, hypothesis: DecoderHypothesis = confident) -> RecognizedUtterance {
            RecognizedUtterance(text: hypothesis.text, confidence: RecognitionConfidence().score(hypothesis), hypothesis: hypothesis,
                                speechStartSeconds: 0, endDetectedSeconds: 1, finishingSeconds: 0, signalToNoiseDecibels: snr)
        }
        let confidence = RecognitionConfidence()
        #expect(confidence.verdict(utterance(snr: 10)) == .tooNoisy)
        #expect(confidence.verdict(utterance(snr: 30)) == .accepted)
        #expect(confidence.verdict(utterance(snr: .infinity)) == .accepted)
        let poorFit = DecoderHypothesis(text: "scan now", posterior: 1, acousticScorePerFrame: -20, frameCount: 80)
        #expect(confidence.verdict(utterance(snr: 30, hypothesis: poorFit)) == .unclear)
    }

    @Test("a spoken command in white noise at 10 dB SNR is refused as too noisy, never acted on; clean it is acted on")
    func listenerRefusesNoisyCommand() throws {
        let folder = try TemporaryFolder.make("voice-tests-noisy")
        defer { try? FileManager.default.removeItem(at: folder) }
        let speech = try spokenSamples("ignore all people", in: folder, sampleRateHz: Self.rate)
        let silence = [Float](repeating: 0, count: Int(Self.rate))
        let padded = silence + speech + silence
        var estimates: [Double] = []
        func events(_ samples: [Float], name: String) throws -> [String] {
            let url = folder.appendingPathComponent(name)
            try AudioFile.writeWAV(AudioBuffer(samples: samples, sampleRate: Self.rate, channelCount: 1), to: url)
            let listener = CommandListener(recognizer: try CommandRecognizer(grammar: englishVocabulary.grammar),
                                           understand: englishVocabulary.meaning(of:))
            var seen: [String] = []
            try listener.listen(to: try AudioFileSpeechSource(url: url)) { event in
                switch event {
                case .heard(let command): seen.append("heard \(command.meaning ?? "nothing")")
                case .unclear: seen.append("unclear")
                case .tooNoisy(let utterance):
                    seen.append("too noisy")
                    estimates.append(utterance.signalToNoiseDecibels)
                case .awake: seen.append("awake")
                }
            }
            return seen
        }
        let ignorePeople = try #require(englishVocabulary.meaning(of: "ignore all people"))
        #expect(try events(padded, name: "clean.wav") == ["heard \(ignorePeople)"])
        let noisy = NoiseMixer.mix(speech: padded, noise: NoiseMixer.whiteNoise(count: padded.count, seed: 11),
                                   snrDecibels: 10, sampleRateHz: Self.rate)
        let heardInNoise = try events(noisy, name: "noisy.wav")
        #expect(!heardInNoise.isEmpty, "the speech must not pass unnoticed")
        #expect(heardInNoise.allSatisfy { $0 == "too noisy" }, "\(heardInNoise)")
        // The utterance with the command in it is measured near the mixed ratio (the detector
        // may also open on a burst of the noise alone, measured far lower).
        let loudest = try #require(estimates.max())
        #expect(abs(loudest - 10) < 3, "estimated \(estimates) dB")
    }
}

@Suite("Refusal notices")
struct RefusalNoticeTests {
    @Test("the full too-noisy sentence first, a short reminder while refusals keep coming, the full one again after a quiet spell")
    func reminders() {
        var notice = RefusalNotice(repeatWindowSeconds: 30)
        #expect(notice.tooNoisy(atSeconds: 5) == CommandListener<Never>.tooNoisy)
        #expect(notice.tooNoisy(atSeconds: 12) == RefusalNotice.tooNoisyReminder)
        #expect(notice.tooNoisy(atSeconds: 40) == RefusalNotice.tooNoisyReminder)  // 28 s after the last
        #expect(notice.tooNoisy(atSeconds: 71) == CommandListener<Never>.tooNoisy)
    }
}
