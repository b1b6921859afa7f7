import Foundation

/// Per-band noise reduction for steady noise.
///
/// The noise power of each band is tracked as the minimum of the (20 ms smoothed) band power,
/// allowed to creep up by 3 dB/s when the power stays above it (continuous minimum tracking,
/// Doblinger 1995, the idea behind openMHA's `noise_psd_estimator` family). The gain is a
/// Wiener gain ξ/(1+ξ) on the a-posteriori SNR with the noise overestimated by 3 dB (to
/// compensate the minimum's downward bias), floored at the program's maximum attenuation
/// (≤ 12 dB), released within 5 ms when the SNR rises so speech onsets pass, and lowered over
/// 60 ms so the attenuation does not flutter (musical noise).
final class NoiseReducer {
    private var smoothedPower = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var noisePower = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var gainDecibels = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var smoothing: Float = 0
    private var riseFactor: Float = 1
    private var gainFall: Float = 0
    private var gainRise: Float = 0

    static let noiseRiseDecibelsPerSecond: Float = 3
    static let overestimation: Float = 2

    func prepare(bandCount: Int, hopSeconds: Double) {
        release()
        // −1 marks "no frame yet": the first frame primes the estimates instead of a slow climb from 0.
        smoothedPower = .allocate(capacity: bandCount); smoothedPower.initialize(repeating: -1)
        noisePower = .allocate(capacity: bandCount); noisePower.initialize(repeating: .greatestFiniteMagnitude)
        gainDecibels = .allocate(capacity: bandCount); gainDecibels.initialize(repeating: 0)
        let hop = Float(hopSeconds)
        smoothing = 1 - expf(-hop / 0.02)
        riseFactor = powf(10, Self.noiseRiseDecibelsPerSecond * hop / 10)
        gainFall = 1 - expf(-hop / 0.06)
        gainRise = 1 - expf(-hop / 0.005)
    }

    func release() {
        for buffer in [smoothedPower, noisePower, gainDecibels] { buffer.deallocate() }
        smoothedPower = .init(start: nil, count: 0); noisePower = .init(start: nil, count: 0)
        gainDecibels = .init(start: nil, count: 0)
    }

    deinit { release() }

    /// The current noise estimate of band `b` (mean-square, input scale): a monitor value.
    func noiseEstimate(band b: Int) -> Float { noisePower[b] == .greatestFiniteMagnitude ? 0 : noisePower[b] }

    /// Updates the noise estimates from `bandPower` and writes gains (dB, ≤ 0). With
    /// `maximumAttenuationDecibels` = 0 the estimates still run (for the monitors) and the gains are 0 dB.
    @inline(__always)
    func process(bandPower: UnsafePointer<Float>, maximumAttenuationDecibels: Float, gainsDecibels out: UnsafeMutablePointer<Float>) {
        for b in 0..<noisePower.count {
            let previous = smoothedPower[b]
            let s = previous < 0 ? bandPower[b] : previous + smoothing * (bandPower[b] - previous)
            smoothedPower[b] = s
            noisePower[b] = s < noisePower[b] ? s : noisePower[b] * riseFactor
            let snr = s / max(Self.overestimation * noisePower[b], 1e-30)
            let xi = max(snr - 1, 0)
            let wiener = xi / (1 + xi)
            let target = max(20 * log10f(max(wiener, 1e-6)), -maximumAttenuationDecibels)
            let g = gainDecibels[b]
            gainDecibels[b] = g + (target > g ? gainRise : gainFall) * (target - g)
            out[b] = maximumAttenuationDecibels > 0 ? gainDecibels[b] : 0
        }
    }
}
