import Foundation
import Testing
@testable import VoiceInput

@Suite("Audio preparation and scoring")
struct SignalTests {
    func sine(_ hz: Double, rate: Double, seconds: Double) -> [Float] {
        (0..<Int(rate * seconds)).map { Float(0.5 * sin(2 * .pi * hz * Double($0) / rate)) }
    }

    @Test("48 kHz speech-band tone resampled to 16 kHz keeps its level; a 12 kHz tone is filtered, not folded")
    func resampling() {
        let kept = RecognizerAudio.resample(sine(1_000, rate: 48_000, seconds: 0.5), from: 48_000, to: 16_000)
        #expect(kept.count == 8_000)
        let middle = kept[1_000..<7_000]
        #expect(abs(NoiseMixer.rms(middle) - 0.5 / 2.0.squareRoot()) < 0.01)
        let aliased = RecognizerAudio.resample(sine(12_000, rate: 48_000, seconds: 0.5), from: 48_000, to: 16_000)
        #expect(NoiseMixer.rms(aliased[1_000..<7_000]) < 0.01)  // below −30 dB of the input
    }

    @Test("noise is added at the requested SNR over the active speech")
    func signalToNoise() {
        let rate = 16_000.0
        let speech = [Float](repeating: 0, count: 8_000) + sine(300, rate: rate, seconds: 1) + [Float](repeating: 0, count: 8_000)
        let noise = NoiseMixer.whiteNoise(count: speech.count, seed: 7)
        let mixed = NoiseMixer.mix(speech: speech, noise: noise, snrDecibels: 10, sampleRateHz: rate)
        let addedNoise = zip(mixed, speech).map { $0 - $1 }
        let snr = 20 * log10(NoiseMixer.activeSpeechRMS(speech, sampleRateHz: rate) / NoiseMixer.rms(addedNoise))
        #expect(abs(snr - 10) < 0.05)
        #expect(abs(NoiseMixer.speechEndSeconds(speech, sampleRateHz: rate) - 1.5) < 0.011)
    }

    @Test("word error rate counts substitutions, deletions and insertions against the reference")
    func wordErrorRate() {
        let count = WordErrorCount(reference: "four queen of clubs", hypothesis: "for queen clubs please")
        #expect(count.errors == 3)  // four→for, of deleted, please inserted
        #expect(count.referenceWords == 4)
        #expect(WordErrorCount(reference: "ten of clubs", hypothesis: "Ten of clubs.").errors == 0)
    }
}
