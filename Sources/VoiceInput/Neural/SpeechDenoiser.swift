import Foundation

/// A mild Wiener filter for an utterance before it is transcribed: short-time spectra (512-sample
/// Hann windows, half overlapping, so the windows sum to one), the noise of each frequency taken as
/// a low percentile of that frequency's power over the utterance (an utterance begins and ends
/// with the background, the pre-roll and the kept silence, and speech leaves gaps at every
/// frequency), and each bin scaled by the Wiener gain ξ/(1+ξ) floored at
/// `maximumAttenuationDecibels` so that speech is never carved into musical noise.
///
/// An experiment for the benchmark (`neural-denoised`): whether it helps Moonshine in steady noise
/// is measured, not assumed (BENCHMARKS.md, "Issue 35 (twenty-fourth session)").
public struct SpeechDenoiser: Sendable {
    public static let frameSamples = 512
    static let hopSamples = frameSamples / 2
    /// The share of frames below which a bin's power is taken as the noise's: low, so that
    /// speech filling a bin for most of the utterance is not taken for noise. The noise's mean is
    /// this percentile divided by −ln(1 − p) (a noise bin's power is exponentially distributed:
    /// its 30th percentile is 0.36 of its mean).
    public var noisePercentile = 0.3
    /// At most this much attenuation in any bin.
    public var maximumAttenuationDecibels = 12.0

    public init() {}

    /// `samples` with the noise reduced; as long as the input. Shorter than two frames: unchanged.
    public func denoised(_ samples: [Float]) -> [Float] {
        let n = Self.frameSamples, hop = Self.hopSamples
        guard samples.count >= 2 * n else { return samples }
        // Periodic Hann: half-overlapping windows sum to exactly one, so the analysis window alone
        // rebuilds the signal where the gain is one.
        let window = (0..<n).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n))) }
        let padded = [Float](repeating: 0, count: hop) + samples + [Float](repeating: 0, count: n)
        let frameCount = (padded.count - n) / hop + 1
        let bins = n / 2 + 1
        var spectra: [[(re: Float, im: Float)]] = []
        spectra.reserveCapacity(frameCount)
        for frame in 0..<frameCount {
            let start = frame * hop
            var re = [Float](repeating: 0, count: n), im = [Float](repeating: 0, count: n)
            for i in 0..<n { re[i] = padded[start + i] * window[i] }
            Self.fft(&re, &im, inverse: false)
            spectra.append((0..<bins).map { (re[$0], im[$0]) })
        }
        let overestimation = Float(1 / -log(1 - noisePercentile))
        let floorGain = Float(pow(10, -maximumAttenuationDecibels / 20))
        var noise = [Float](repeating: 0, count: bins)
        let rank = min(frameCount - 1, Int(Double(frameCount) * noisePercentile))
        for bin in 0..<bins {
            let powers = spectra.map { $0[bin].re * $0[bin].re + $0[bin].im * $0[bin].im }.sorted()
            noise[bin] = powers[rank] * overestimation
        }
        var output = [Float](repeating: 0, count: padded.count)
        for frame in 0..<frameCount {
            var re = [Float](repeating: 0, count: n), im = [Float](repeating: 0, count: n)
            for bin in 0..<bins {
                let (r, i) = spectra[frame][bin]
                let power = r * r + i * i
                let xi = max(power / max(noise[bin], 1e-20) - 1, 0)
                let gain = max(xi / (1 + xi), floorGain)
                re[bin] = r * gain; im[bin] = i * gain
                if bin > 0, bin < n / 2 { re[n - bin] = r * gain; im[n - bin] = -i * gain }
            }
            Self.fft(&re, &im, inverse: true)
            let start = frame * hop
            for i in 0..<n { output[start + i] += re[i] }
        }
        return Array(output[hop..<(hop + samples.count)])
    }

    /// In-place radix-2 FFT of a power-of-two length; the inverse divides by the length.
    static func fft(_ re: inout [Float], _ im: inout [Float], inverse: Bool) {
        let n = re.count
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j |= bit
            if i < j { re.swapAt(i, j); im.swapAt(i, j) }
        }
        var length = 2
        while length <= n {
            let angle = (inverse ? 2 : -2) * Double.pi / Double(length)
            let wRe = Float(cos(angle)), wIm = Float(sin(angle))
            var start = 0
            while start < n {
                var cRe: Float = 1, cIm: Float = 0
                for k in 0..<(length / 2) {
                    let a = start + k, b = a + length / 2
                    let tRe = re[b] * cRe - im[b] * cIm, tIm = re[b] * cIm + im[b] * cRe
                    re[b] = re[a] - tRe; im[b] = im[a] - tIm
                    re[a] += tRe; im[a] += tIm
                    let next = cRe * wRe - cIm * wIm
                    cIm = cRe * wIm + cIm * wRe
                    cRe = next
                }
                start += length
            }
            length <<= 1
        }
        if inverse { for i in 0..<n { re[i] /= Float(n); im[i] /= Float(n) } }
    }
}
