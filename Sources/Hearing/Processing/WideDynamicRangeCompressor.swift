import Foundation

/// Multiband wide dynamic range compression (openMHA `dc`): per band, the input level is
/// followed with a fast attack and a slow release, and the gain is read off the band's
/// input/output rule (`BandTarget.insertionGain`), then held below the band's maximum output.
///
/// The follower runs on band levels in dB. A fast-attack/slow-release follower reads the peaks
/// of a fluctuating band power (it sits above the mean), while averaging in dB reads below it
/// (the geometric mean); in dB the two biases largely cancel, so speech-like noise gets within
/// about 1.5 dB of the gain a steady tone of the same band level gets (measured with
/// `assist hear verify`; averaging power instead left the narrow low bands 2 dB short).
/// Steady tones are unaffected either way. Defaults (from the program): attack 5 ms, release 50–100 ms; Dillon, Hearing Aids §6.3,
/// calls this syllabic compression.
final class WideDynamicRangeCompressor {
    /// Smoothed band level in dB re mean-square power 1 (input scale), per band.
    private var smoothedDecibels = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var hopSeconds: Float = 0
    private var referencePower: Float = 1
    /// The follower's coefficients for the last attack and release times seen: they change
    /// only with the program, so they are not recomputed every hop.
    private var attackCoefficient: (seconds: Double, value: Float) = (.nan, 0)
    private var releaseCoefficient: (seconds: Double, value: Float) = (.nan, 0)

    func prepare(bandCount: Int, hopSeconds: Double, inputFullScaleSPL: Double) {
        release()
        self.hopSeconds = Float(hopSeconds)
        attackCoefficient = (.nan, 0); releaseCoefficient = (.nan, 0)
        smoothedDecibels = .allocate(capacity: bandCount)
        smoothedDecibels.initialize(repeating: -200)
    }

    func release() {
        smoothedDecibels.deallocate()
        smoothedDecibels = .init(start: nil, count: 0)
    }

    deinit { release() }

    /// Smoothed mean-square power of band `b` (input scale).
    @inline(__always) func smoothedPower(band b: Int) -> Float { powf(10, smoothedDecibels[b] / 10) }

    /// The smoothed level of band `b` in dB SPL (a monitor value).
    func smoothedLevelSPL(band b: Int, inputFullScaleSPL: Float) -> Float {
        inputFullScaleSPL + 3.0103 + smoothedDecibels[b]
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
        if attackCoefficient.seconds != attackSeconds {
            attackCoefficient = (attackSeconds, 1 - expf(-hopSeconds / Float(max(attackSeconds, 1e-4))))
        }
        if releaseCoefficient.seconds != releaseSeconds {
            releaseCoefficient = (releaseSeconds, 1 - expf(-hopSeconds / Float(max(releaseSeconds, 1e-4))))
        }
        let attack = attackCoefficient.value, release = releaseCoefficient.value
        for b in 0..<smoothedDecibels.count {
            // Band powers are finite (the `InputGuard` bounds the input); should one not be, the
            // follower restarts from the floor instead of carrying NaN into every later gain.
            let power = bandPower[b]
            let p = power.isFinite ? 10 * log10f(max(power, 1e-20)) : -200, s = smoothedDecibels[b]
            smoothedDecibels[b] = s + (p > s ? attack : release) * (p - s)
            // Mean square 0.5 (a full-scale sine) is the full-scale level: +10·log10(2) = 3.0103 dB.
            let level = inputFullScaleSPL + 3.0103 + smoothedDecibels[b]
            levelsSPL[b] = level
            gainsDecibels[b] = Float(targets[b].insertionGain(bandLevelSPL: Double(level)))
        }
    }
}
