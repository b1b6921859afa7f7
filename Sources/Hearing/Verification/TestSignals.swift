import AssistCore
import Foundation

/// Test signals for verification: tones, sweeps, impulses and speech-shaped noise.
public enum TestSignals {
    public static func tone(frequencyHz: Double, amplitude: Double, seconds: Double, sampleRate: Double) -> [Float] {
        let count = Int(seconds * sampleRate)
        let w = 2 * Double.pi * frequencyHz / sampleRate
        return (0..<count).map { Float(amplitude * sin(w * Double($0))) }
    }

    /// Logarithmic sine sweep from `startHz` to `endHz`.
    public static func sweep(fromHz startHz: Double, toHz endHz: Double, amplitude: Double, seconds: Double,
                             sampleRate: Double) -> [Float] {
        let count = Int(seconds * sampleRate)
        let k = log(endHz / startHz)
        return (0..<count).map { n in
            let t = Double(n) / sampleRate
            let phase = 2 * Double.pi * startHz * seconds / k * (exp(t / seconds * k) - 1)
            return Float(amplitude * sin(phase))
        }
    }

    /// Noise with the standard speech spectrum's shape (ANSI S3.5-1997 Table 3, normal effort;
    /// see `SpeechSpectrum`), scaled to `rmsDBFS` overall. Shaped in the frequency domain (one
    /// FFT of the whole signal, so it loops seamlessly); deterministic for a given seed.
    public static func speechShapedNoise(rmsDBFS: Double, seconds: Double, sampleRate: Double, seed: UInt64 = 1) -> [Float] {
        let count = Int(seconds * sampleRate)
        let n = max(2, count + count % 2)
        var generator = SplitMix64(seed: seed)
        let fft = RealFFT(size: n)
        for i in 0..<n { fft.samples[i] = Float.random(in: -1...1, using: &generator) }
        fft.forward()
        let spectrum = fft.spectrum
        for k in 0..<spectrum.count {
            let f = Double(k) * sampleRate / Double(n)
            // Below 100 Hz and above 10 kHz speech has little energy; roll off there.
            let rolloff = f < 100 ? f / 100 : (f > 10_000 ? 10_000 / f : 1)
            let shape = Float(pow(10, SpeechSpectrum.spectrumLevel(atHz: max(f, 1)) / 20) * rolloff)
            spectrum[k].r *= shape
            spectrum[k].i *= shape
        }
        fft.inverse()
        let time = Array(fft.samples.prefix(count))
        let rms = (time.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(count, 1))).squareRoot()
        // A full-scale sine has RMS 1/√2 and is 0 dBFS.
        let scale = Float(pow(10, rmsDBFS / 20) / 2.0.squareRoot() / max(rms, 1e-30))
        return time.map { $0 * scale }
    }

    public static func impulse(at index: Int, amplitude: Float, count: Int) -> [Float] {
        var x = [Float](repeating: 0, count: count)
        x[index] = amplitude
        return x
    }
}

/// Measurements on recorded signals.
public enum SignalMeasurement {
    /// Amplitude of the sinusoid at `frequencyHz` in `signal[range]` (every `stride`-th sample
    /// from `offset`), by a Hann-windowed single-frequency DFT: leakage from other components
    /// (harmonics, noise) is suppressed, so this reads the fundamental alone.
    public static func toneAmplitude(_ signal: [Float], frequencyHz: Double, sampleRate: Double,
                                     frames: Range<Int>, channel: Int = 0, channels: Int = 1) -> Double {
        let w = 2 * Double.pi * frequencyHz / sampleRate
        var re = 0.0, im = 0.0, windowSum = 0.0
        let count = frames.count
        for (j, n) in frames.enumerated() {
            let window = 0.5 - 0.5 * cos(2 * Double.pi * Double(j) / Double(count))
            let x = Double(signal[n * channels + channel]) * window
            re += x * cos(w * Double(n)); im -= x * sin(w * Double(n))
            windowSum += window
        }
        return 2 * (re * re + im * im).squareRoot() / windowSum
    }

    public static func peak(_ signal: [Float], frames: Range<Int>, channel: Int = 0, channels: Int = 1) -> Float {
        var m: Float = 0
        for n in frames { m = max(m, abs(signal[n * channels + channel])) }
        return m
    }

    public static func rms(_ signal: [Float], frames: Range<Int>, channel: Int = 0, channels: Int = 1) -> Double {
        var s = 0.0
        for n in frames { let x = Double(signal[n * channels + channel]); s += x * x }
        return (s / Double(max(frames.count, 1))).squareRoot()
    }

    /// Total harmonic distortion (2nd to 5th harmonic below Nyquist) relative to the fundamental, in percent.
    public static func harmonicDistortionPercent(_ signal: [Float], fundamentalHz: Double, sampleRate: Double,
                                                 frames: Range<Int>, channel: Int = 0, channels: Int = 1) -> Double {
        let fundamental = toneAmplitude(signal, frequencyHz: fundamentalHz, sampleRate: sampleRate, frames: frames,
                                        channel: channel, channels: channels)
        var harmonics = 0.0
        for h in 2...5 where Double(h) * fundamentalHz < sampleRate / 2 {
            let a = toneAmplitude(signal, frequencyHz: Double(h) * fundamentalHz, sampleRate: sampleRate, frames: frames,
                                  channel: channel, channels: channels)
            harmonics += a * a
        }
        return 100 * harmonics.squareRoot() / max(fundamental, 1e-30)
    }
}

