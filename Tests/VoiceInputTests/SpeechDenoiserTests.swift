import Foundation
import Testing
@testable import VoiceInput

@Suite("The Wiener filter tried before transcribing")
struct SpeechDenoiserTests {
    static func power(_ samples: ArraySlice<Float>) -> Double {
        samples.reduce(0.0) { $0 + Double($1 * $1) } / Double(samples.count)
    }

    @Test("in steady white noise, the noise between words is lowered by at least 5 dB and a word's energy kept within 2 dB")
    func lowersNoiseKeepsSpeech() {
        let rate = 16_000
        // 1 s of noise, 0.5 s of a 440 Hz "word" 10 dB above it, 1 s of noise.
        let noise = NoiseMixer.whiteNoise(count: 5 * rate / 2, seed: 7).map { $0 * 0.01 }
        var signal = noise
        let amplitude = Float(0.01 * sqrt(2 * 10.0))
        for i in rate..<(3 * rate / 2) { signal[i] += amplitude * Float(sin(2 * Double.pi * 440 * Double(i) / Double(rate))) }
        let cleaned = SpeechDenoiser().denoised(signal)
        #expect(cleaned.count == signal.count)
        let gap = 200..<(rate - 1_000), word = (rate + 1_000)..<(3 * rate / 2 - 1_000)
        let noiseDrop = 10 * log10(Self.power(signal[gap]) / Self.power(cleaned[gap]))
        let wordChange = 10 * log10(Self.power(cleaned[word]) / Self.power(signal[word]))
        #expect(noiseDrop >= 5)
        #expect(abs(wordChange) <= 2)
    }

    @Test("audio shorter than two frames is given back as it is")
    func shortAudio() {
        let short = [Float](repeating: 0.1, count: 600)
        #expect(SpeechDenoiser().denoised(short) == short)
    }
}
