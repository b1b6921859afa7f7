import Foundation

/// The last resort against feedback: finds a band that rings and lowers its gain.
///
/// Howling is a pure tone that stands far above its spectral neighbourhood and stays: each hop
/// the strongest bin is compared with the mean power of the bins 3–5 away on both sides (beyond
/// the √Hann window's main lobe, so a tone's own skirt does not count). Speech, noise and music
/// with several partials per band stay well under `toneToNeighbourhoodDecibels`; a held tone of
/// `ringingSeconds` counts as howling. Then the gain of the band whose centre is nearest lowers
/// by `stepDecibels`, again every `ringingSeconds` while it rings, down to
/// `maximumReductionDecibels`; once the band has been quiet for `holdSeconds` the reduction
/// recovers at `recoveryDecibelsPerSecond`, so a howl that returns is caught again but the
/// prescription comes back when the cause (a hand, a hat) has gone.
final class HowlDetector {
    static let toneToNeighbourhoodDecibels: Float = 20
    /// Tones quieter than this (dB SPL at the input) are not howling whatever their shape.
    static let minimumLevelSPL: Float = 40
    static let ringingSeconds = 0.06
    static let stepDecibels: Float = 3
    static let maximumReductionDecibels: Float = 24
    static let holdSeconds = 2.0
    static let recoveryDecibelsPerSecond: Float = 1

    private var ringingHops = UnsafeMutableBufferPointer<Int>(start: nil, count: 0)
    private var quietHops = UnsafeMutableBufferPointer<Int>(start: nil, count: 0)
    /// Gain reduction per band, dB (≥ 0): the monitor the debug view shows.
    private(set) var reductionDecibels = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var hopsToRing = 1
    private var hopsToHold = 1
    private var recoveryPerHop: Float = 0
    private var nearestBandOfBin: [Int] = []

    func prepare(layout: BandLayout, binCount: Int, hopSeconds: Double) {
        release()
        let bands = BandLayout.bandCount
        ringingHops = .allocate(capacity: bands); ringingHops.initialize(repeating: 0)
        quietHops = .allocate(capacity: bands); quietHops.initialize(repeating: 0)
        reductionDecibels = .allocate(capacity: bands); reductionDecibels.initialize(repeating: 0)
        hopsToRing = max(1, Int((Self.ringingSeconds / hopSeconds).rounded()))
        hopsToHold = max(1, Int((Self.holdSeconds / hopSeconds).rounded()))
        recoveryPerHop = Self.recoveryDecibelsPerSecond * Float(hopSeconds)
        // The band whose gain governs a bin most: the nearer of the two it is interpolated between.
        nearestBandOfBin = (0..<binCount).map { k in
            layout.upperWeightOfBin[k] < 0.5 ? layout.lowerBandOfBin[k] : layout.lowerBandOfBin[k] + 1
        }
    }

    func release() {
        ringingHops.deallocate(); quietHops.deallocate(); reductionDecibels.deallocate()
        ringingHops = .init(start: nil, count: 0); quietHops = .init(start: nil, count: 0)
        reductionDecibels = .init(start: nil, count: 0)
    }

    deinit { release() }

    func reset() {
        ringingHops.update(repeating: 0); quietHops.update(repeating: 0); reductionDecibels.update(repeating: 0)
    }

    /// Looks at one hop's spectrum (before gains) and updates the per-band reductions.
    /// `minimumBinPower`: the |X|² of a bin holding a tone at `minimumLevelSPL`.
    @inline(__always)
    func process(_ spectrum: UnsafeMutableBufferPointer<ComplexBin>, minimumBinPower: Float) {
        var loudest = 0
        var loudestPower: Float = 0
        // Bin 5 (940 Hz) up: below it the neighbourhood would reach DC, and the chain's 250/500 Hz
        // gains are too small to howl with a real earphone.
        let count = spectrum.count
        for k in 5..<(count - 5) {
            let p = spectrum[k].r * spectrum[k].r + spectrum[k].i * spectrum[k].i
            if p > loudestPower { loudestPower = p; loudest = k }
        }
        var ringingBand = -1
        if loudest > 0 {
            var neighbourhood: Float = 0
            for d in 3...5 {
                let below = spectrum[loudest - d], above = spectrum[loudest + d]
                neighbourhood += below.r * below.r + below.i * below.i + above.r * above.r + above.i * above.i
            }
            neighbourhood /= 6
            let ratio = 10 * log10f(loudestPower / (neighbourhood + 1e-30))
            if ratio >= Self.toneToNeighbourhoodDecibels, loudestPower >= minimumBinPower {
                ringingBand = nearestBandOfBin[loudest]
            }
        }
        for b in 0..<reductionDecibels.count {
            if b == ringingBand {
                quietHops[b] = 0
                ringingHops[b] += 1
                if ringingHops[b] >= hopsToRing {
                    reductionDecibels[b] = min(Self.maximumReductionDecibels, reductionDecibels[b] + Self.stepDecibels)
                    ringingHops[b] = 0
                }
            } else {
                ringingHops[b] = 0
                quietHops[b] += 1
                if quietHops[b] >= hopsToHold { reductionDecibels[b] = max(0, reductionDecibels[b] - recoveryPerHop) }
            }
        }
    }
}
