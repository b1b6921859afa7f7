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

    @Test("assist listen says that no words were made out of speech drowned by noise, rather than printing empty quotes")
    func drownedSpeechLine() throws {
        let drowned = RecognizedUtterance(text: "", confidence: 0, speechStartSeconds: 2, endDetectedSeconds: 3,
                                          finishingSeconds: 0, signalToNoiseDecibels: -3, syllables: 4)
        let language = try CommandLanguage(language: "en", categories: cocoNames)
        let line = ListenOutput(.tooNoisy(drowned), language: language).line(json: false)
        #expect(line.hasPrefix("Too noisy (speech -3.0 dB above the background; no words made out): "), "\(line)")
    }

    /// The events a listener reports for `samples`, as (kind, audio time of the end of the utterance).
    func events(_ samples: [Float], in folder: URL, name: String) throws -> [(String, Double)] {
        let url = folder.appendingPathComponent(name)
        try AudioFile.writeWAV(AudioBuffer(samples: samples, sampleRate: Self.rate, channelCount: 1), to: url)
        let listener = CommandListener(recognizer: try ListeningDecoding.standard.recognizer(vocabulary: englishVocabulary),
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

    @Test("3 s of white noise with nobody speaking, from the start or after a quiet second: no sentence, nothing done")
    func noiseAlone() throws {
        let folder = try TemporaryFolder.make("voice-tests-noise-alone")
        defer { try? FileManager.default.removeItem(at: folder) }
        let noise = NoiseMixer.whiteNoise(count: Int(Self.rate * 3), seed: 21).map { $0 * 0.05 }
        #expect(try events(noise, in: folder, name: "noise.wav").isEmpty)
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
