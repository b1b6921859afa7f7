import Commands
import Foundation
import TestSupport
import Media
import Testing
@testable import VoiceInput

/// "Too noisy" is said only once someone spoke: noise alone, however loud, is no utterance.
@Suite("Too noisy only after speech was heard", .serialized)
struct SpeechInNoiseTests {
    static let rate = 16_000.0

    /// Counts syllables as the recogniser does: 20 ms chunks, those in `utterance` (seconds) marked.
    func syllables(_ samples: [Float], utterance: ClosedRange<Double>) -> Int {
        var meter = SpeechLevelMeter()
        let pcm = RecognizerAudio.toInt16(samples)
        for start in stride(from: 0, to: pcm.count, by: 320) {
            let chunk = Array(pcm[start..<min(start + 320, pcm.count)])
            chunk.withUnsafeBufferPointer { meter.add($0, inUtterance: utterance.contains(Double(start) / Self.rate)) }
        }
        return meter.syllablesInUtterance
    }

    @Test("steady noise, and noise that starts and stays, have no syllables; a level rising and falling four times a second has")
    func syllableCount() {
        let noise = NoiseMixer.whiteNoise(count: Int(Self.rate * 3), seed: 7).map { $0 * 0.1 }
        #expect(syllables(noise, utterance: 0...3) == 0)
        let silence = [Float](repeating: 0, count: Int(Self.rate))
        #expect(syllables(silence + noise, utterance: 0.9...4) == 0)
        // White noise whose level swings by 9.5 dB (amplitude 1 to 3) four times a second, like syllables.
        let swinging: [Float] = noise.indices.map { index in
            let phase: Double = 2 * Double.pi * 4 * Double(index) / Self.rate
            return noise[index] * Float(1 + 2 * max(0, sin(phase)))
        }
        #expect(syllables(swinging, utterance: 0...3) >= 10)
    }

    @Test("below the noise bar, an utterance without syllables is no speech: nothing said; with them it is too noisy; above the bar unchanged")
    func verdicts() {
        let confident = DecoderHypothesis(text: "scan now", posterior: 1, acousticScorePerFrame: -5, frameCount: 80)
        func utterance(snr: Double, syllables: Int) -> RecognizedUtterance {
            RecognizedUtterance(text: "scan now", confidence: 1, hypothesis: confident, speechStartSeconds: 0,
                                endDetectedSeconds: 1, finishingSeconds: 0, signalToNoiseDecibels: snr, syllables: syllables)
        }
        let confidence = RecognitionConfidence()
        #expect(confidence.verdict(utterance(snr: 0, syllables: 0)) == .noSpeech)
        #expect(confidence.verdict(utterance(snr: -.infinity, syllables: 1)) == .noSpeech)
        #expect(confidence.verdict(utterance(snr: 0, syllables: 3)) == .tooNoisy)
        #expect(confidence.verdict(utterance(snr: 30, syllables: 1)) == .accepted)
        #expect(confidence.verdict(utterance(snr: .infinity, syllables: 0)) == .noSpeech)
    }

    @Test("assist listen says that no words were made out of speech drowned by noise, rather than printing empty quotes")
    func drownedSpeechLine() throws {
        let nothing = DecoderHypothesis(text: "", posterior: 0, acousticScorePerFrame: -.greatestFiniteMagnitude, frameCount: 0)
        let drowned = RecognizedUtterance(text: "", confidence: 0, hypothesis: nothing, speechStartSeconds: 2, endDetectedSeconds: 3,
                                          finishingSeconds: 0, signalToNoiseDecibels: -3, syllables: 4)
        let language = try CommandLanguage(language: "en", categories: cocoNames)
        let line = ListenOutput(.tooNoisy(drowned), language: language).line(json: false)
        #expect(line.hasPrefix("Too noisy (speech -3.0 dB above the background; no words made out): "), "\(line)")
    }

    /// The events a listener reports for `samples`, as (kind, audio time of the end of the utterance).
    func events(_ samples: [Float], in folder: URL, name: String,
                confidence: RecognitionConfidence = RecognitionConfidence()) throws -> [(String, Double)] {
        let url = folder.appendingPathComponent(name)
        try AudioFile.writeWAV(AudioBuffer(samples: samples, sampleRate: Self.rate, channelCount: 1), to: url)
        let listener = CommandListener(recognizer: try CommandRecognizer(grammar: englishVocabulary.grammar, confidence: confidence),
                                       understand: englishVocabulary.meaning(of:))
        var seen: [(String, Double)] = []
        try listener.listen(to: try AudioFileSpeechSource(url: url)) { event in
            switch event {
            case .heard(let command): seen.append(("heard \(command.meaning ?? "nothing")", .nan))
            case .unclear(let utterance): seen.append(("unclear", utterance.endDetectedSeconds))
            case .tooNoisy(let utterance): seen.append(("too noisy", utterance.endDetectedSeconds))
            case .awake: seen.append(("awake", .nan))
            }
        }
        return seen
    }

    @Test("3 s of white noise with nobody speaking, from the start or after a quiet second: no sentence, nothing done (without the rule there would be one)")
    func noiseAlone() throws {
        let folder = try TemporaryFolder.make("voice-tests-noise-alone")
        defer { try? FileManager.default.removeItem(at: folder) }
        let noise = NoiseMixer.whiteNoise(count: Int(Self.rate * 3), seed: 21).map { $0 * 0.05 }
        #expect(try events(noise, in: folder, name: "noise.wav").isEmpty)
        // The detector does open on the noise's onset: counting syllables is what keeps it quiet.
        let withoutRule = try events(noise, in: folder, name: "noise.wav", confidence: RecognitionConfidence(minimumSyllablesInNoise: 0))
        #expect(withoutRule.map(\.0).contains("too noisy"), "\(withoutRule)")
        // Noise that starts after a quiet second (its onset, measured against the quiet): nothing either.
        let quietThenNoise = [Float](repeating: 0, count: Int(Self.rate)) + noise
        #expect(try events(quietThenNoise, in: folder, name: "onset.wav").isEmpty)
    }

    @Test("a spoken command drowned in white noise gives one too-noisy sentence, after the speech began; clean it is acted on",
          arguments: [0.0, -5])
    func speechInHeavyNoise(snr: Double) throws {
        let folder = try TemporaryFolder.make("voice-tests-speech-in-noise")
        defer { try? FileManager.default.removeItem(at: folder) }
        let speech = try spokenSamples("ignore all people", in: folder, sampleRateHz: Self.rate)
        // Noise for 2 s before anyone speaks, so its onset and the speech are apart.
        let padded = [Float](repeating: 0, count: Int(Self.rate * 2)) + speech + [Float](repeating: 0, count: Int(Self.rate))
        let speechOnset = NoiseMixer.speechStartSeconds(padded, sampleRateHz: Self.rate)
        let ignorePeople = try #require(englishVocabulary.meaning(of: "ignore all people"))
        #expect(try events(padded, in: folder, name: "clean.wav").map(\.0) == ["heard \(ignorePeople)"])
        let noisy = NoiseMixer.mix(speech: padded, noise: NoiseMixer.whiteNoise(count: padded.count, seed: 11),
                                   snrDecibels: snr, sampleRateHz: Self.rate)
        let heard = try events(noisy, in: folder, name: "noisy.wav")
        #expect(heard.map(\.0) == ["too noisy"], "at \(snr) dB: \(heard); speech began at \(speechOnset) s")
        if let refused = heard.first { #expect(refused.1 >= speechOnset, "too noisy at \(refused.1) s, speech began at \(speechOnset) s") }
    }
}
