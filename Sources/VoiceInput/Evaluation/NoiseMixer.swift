import AssistCore
import Foundation

/// The noise added to test speech.
public enum TestNoise: String, Sendable, CaseIterable, Codable {
    /// Gaussian white noise: flat spectrum, hardest on fricatives.
    case white
    /// Several other sentences by the same voice at once: the "cafeteria" noise that looks most like speech.
    case babble
}

/// Adds noise to speech at a chosen signal-to-noise ratio. The speech level is the RMS over its
/// active part only (10 ms frames within 40 dB of the loudest, in the spirit of ITU-T P.56's
/// active speech level), so leading and trailing silence do not make the noise look quieter
/// than it sounds during the words.
public enum NoiseMixer {
    public static func activeSpeechRMS(_ speech: [Float], sampleRateHz: Double) -> Double {
        let frame = max(1, Int(sampleRateHz / 100))
        let framePowers = stride(from: 0, to: speech.count, by: frame).map { start in
            let level = rms(speech[start..<min(start + frame, speech.count)])
            return level * level
        }
        return (activePower(ofFrames: framePowers) ?? 0).squareRoot()
    }

    /// Mean power of the active frames: those within 40 dB of the loudest (ITU-T P.56's idea of
    /// active speech); nil when every frame is silent.
    static func activePower(ofFrames powers: [Double]) -> Double? {
        guard let loudest = powers.max(), loudest > 0 else { return nil }
        let active = powers.filter { $0 >= loudest * 1e-4 }
        return active.reduce(0, +) / Double(active.count)
    }

    public static func rms<C: Collection>(_ samples: C) -> Double where C.Element == Float {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// Audio time (seconds) where speech starts: the start of the first 10 ms frame within 40 dB of the loudest.
    public static func speechStartSeconds(_ speech: [Float], sampleRateHz: Double) -> Double {
        let (_, starts, levels) = tenMillisecondLevels(speech, sampleRateHz: sampleRateHz)
        guard let loudest = levels.max(), loudest > 0,
              let first = levels.firstIndex(where: { $0 >= loudest * 0.01 }) else { return 0 }
        return Double(starts[first]) / sampleRateHz
    }

    /// Audio time (seconds) where speech ends: the end of the last 10 ms frame within 40 dB of the loudest.
    public static func speechEndSeconds(_ speech: [Float], sampleRateHz: Double) -> Double {
        let (frame, starts, levels) = tenMillisecondLevels(speech, sampleRateHz: sampleRateHz)
        guard let loudest = levels.max(), loudest > 0,
              let last = levels.lastIndex(where: { $0 >= loudest * 0.01 }) else { return 0 }
        return Double(min(starts[last] + frame, speech.count)) / sampleRateHz
    }

    /// The RMS level of each 10 ms frame, with the frame length and where each frame starts.
    private static func tenMillisecondLevels(_ speech: [Float], sampleRateHz: Double) -> (frame: Int, starts: [Int], levels: [Double]) {
        let frame = max(1, Int(sampleRateHz / 100))
        let starts = Array(stride(from: 0, to: speech.count, by: frame))
        return (frame, starts, starts.map { rms(speech[$0..<min($0 + frame, speech.count)]) })
    }

    /// `speech + noise`, the noise scaled so that active speech RMS / noise RMS = `snrDecibels`.
    /// `noise` is looped when shorter than the speech.
    public static func mix(speech: [Float], noise: [Float], snrDecibels: Double, sampleRateHz: Double) -> [Float] {
        let speechLevel = activeSpeechRMS(speech, sampleRateHz: sampleRateHz)
        let noiseLevel = rms(noise)
        guard speechLevel > 0, noiseLevel > 0 else { return speech }
        let gain = Float(speechLevel / pow(10, snrDecibels / 20) / noiseLevel)
        return speech.indices.map { speech[$0] + gain * noise[$0 % noise.count] }
    }

    /// Gaussian white noise (Box–Muller), unit RMS, the same for the same seed.
    public static func whiteNoise(count: Int, seed: UInt64) -> [Float] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let u1 = max(Double.random(in: 0..<1, using: &generator), 1e-12)
            let u2 = Double.random(in: 0..<1, using: &generator)
            return Float((-2 * log(u1)).squareRoot() * cos(2 * .pi * u2))
        }
    }

    /// Babble: `talkers` utterances summed, each started at a different offset and looped to `count` samples.
    public static func babble(from utterances: [[Float]], talkers: Int, count: Int, seed: UInt64) -> [Float] {
        let voices = utterances.filter { !$0.isEmpty }
        guard !voices.isEmpty else { return [Float](repeating: 0, count: count) }
        var generator = SplitMix64(seed: seed)
        var mixed = [Float](repeating: 0, count: count)
        for talker in 0..<talkers {
            let voice = voices[(talker * 7 + Int.random(in: 0..<voices.count, using: &generator)) % voices.count]
            let offset = Int.random(in: 0..<voice.count, using: &generator)
            for i in 0..<count { mixed[i] += voice[(i + offset) % voice.count] }
        }
        return mixed
    }
}
