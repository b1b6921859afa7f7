import Foundation

/// Multiband wide dynamic range compression (openMHA `dc`): per band, the input level is
/// followed with a fast attack and a slow release, and the gain is read off the band's
/// input/output rule (`BandTarget.insertionGain`), then held below the band's maximum output.
///
/// Levels are smoothed as power, not in dB, so steady noise is measured at its mean level.
/// Defaults (from the program): attack 5 ms, release 50–100 ms; Dillon, Hearing Aids §6.3,
/// calls this syllabic compression.
final class WideDynamicRangeCompressor {
    private var smoothedPower = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var hopSeconds: Float = 0
    private var referencePower: Float = 1

    func prepare(bandCount: Int, hopSeconds: Double, inputFullScaleSPL: Double) {
        release()
        self.hopSeconds = Float(hopSeconds)
        smoothedPower = .allocate(capacity: bandCount)
        smoothedPower.initialize(repeating: 0)
    }

    func release() {
        smoothedPower.deallocate()
        smoothedPower = .init(start: nil, count: 0)
    }

    deinit { release() }

    /// Smoothed mean-square power of band `b` (input scale).
    @inline(__always) func smoothedPower(band b: Int) -> Float { smoothedPower[b] }

    /// The smoothed level of band `b` in dB SPL (a monitor value).
    func smoothedLevelSPL(band b: Int, inputFullScaleSPL: Float) -> Float {
        levelSPL(power: smoothedPower[b], inputFullScaleSPL: inputFullScaleSPL)
    }

    /// Mean-square band power (input samples, full-scale sine = 0.5) → dB SPL.
    @inline(__always)
    func levelSPL(power: Float, inputFullScaleSPL: Float) -> Float {
        inputFullScaleSPL + 10 * log10f(max(2 * power, 1e-20))
    }

    /// Follows `bandPower` and writes each band's prescribed insertion gain (dB) and smoothed level.
    @inline(__always)
    func process(bandPower: UnsafePointer<Float>, targets: [BandTarget], attackSeconds: Double, releaseSeconds: Double,
                 inputFullScaleSPL: Float, levelsSPL: UnsafeMutablePointer<Float>, gainsDecibels: UnsafeMutablePointer<Float>) {
        let attack = 1 - expf(-hopSeconds / Float(max(attackSeconds, 1e-4)))
        let release = 1 - expf(-hopSeconds / Float(max(releaseSeconds, 1e-4)))
        for b in 0..<smoothedPower.count {
            let p = bandPower[b], s = smoothedPower[b]
            smoothedPower[b] = s + (p > s ? attack : release) * (p - s)
            let level = levelSPL(power: smoothedPower[b], inputFullScaleSPL: inputFullScaleSPL)
            levelsSPL[b] = level
            gainsDecibels[b] = Float(targets[b].insertionGain(inputLevelSPL: Double(level)))
        }
    }
}
