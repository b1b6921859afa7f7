import Foundation

/// Broadband peak limiter that enforces the maximum output and keeps samples inside full scale.
///
/// It sees a whole hop before writing it, so it can lower the gain ahead of a peak inside the
/// hop without adding delay: a backward pass gives each sample the lowest gain any later
/// sample in the hop needs, relaxed by at most 1/R per sample (a linear ramp into the peak); a
/// forward pass releases towards unity with a 50 ms time constant. A final clamp at the cap
/// guards against rounding, so no sample ever exceeds it.
///
/// It is the last word on the output: whatever reaches it (NaN, ∞, a full-scale square wave
/// amplified by 60 dB), what leaves it is finite and within the cap. A sample that is not a
/// number leaves as silence, and the gain it would have set is not kept, so one bad sample
/// never holds the output down (or up) for longer than its own hop.
final class OutputLimiter {
    private var needed = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private(set) var currentGain: Float = 1
    private var releaseCoefficient: Float = 0
    private var rampPerSample: Float = 0

    func prepare(hopSize: Int, sampleRate: Double) {
        release()
        needed = .allocate(capacity: hopSize); needed.initialize(repeating: 1)
        releaseCoefficient = 1 - expf(-1 / (0.05 * Float(sampleRate)))
        rampPerSample = 1 / Float(hopSize)
        currentGain = 1
    }

    func release() {
        needed.deallocate()
        needed = .init(start: nil, count: 0)
    }

    deinit { release() }

    @inline(__always)
    func process(_ samples: UnsafeMutablePointer<Float>, count: Int, peakCap cap: Float, bypassed: Bool) {
        // The cap is a peak amplitude within full scale; a broken one errs on the quiet side.
        let cap = cap > 0 && cap <= 1 ? cap : (cap > 1 ? 1 : 0)
        if bypassed {
            // Smooth limiting off (a debugging aid): release back to unity, but the fitted
            // maximum output still holds as a hard clamp.
            for i in 0..<count {
                currentGain += releaseCoefficient * (1 - currentGain)
                samples[i] = Self.clamped(samples[i] * currentGain, cap)
            }
            return
        }
        // Most hops need no limiting: every sample finite and within the cap, the gain at unity.
        // Then the passes below would compute a gain of exactly 1 for every sample and leave the
        // samples as they are; skip them (the same result, bit for bit, without their serial
        // dependency chains).
        var largest: Float = 0
        var allFinite = true
        for i in 0..<count {
            let magnitude = abs(samples[i])
            largest = max(largest, magnitude)
            allFinite = allFinite && magnitude.isFinite
        }
        if allFinite, largest <= cap, currentGain == 1 { return }
        var next: Float = 1
        for i in stride(from: count - 1, through: 0, by: -1) {
            let magnitude = abs(samples[i])
            // A non-finite sample leaves as silence (below) and sets no gain: it is damage, not a peak.
            let need = magnitude.isFinite && magnitude > cap ? cap / magnitude : 1
            next = min(need, next + rampPerSample)
            needed[i] = next
        }
        var g = currentGain
        for i in 0..<count {
            g = min(needed[i], g + releaseCoefficient * (1 - g))
            samples[i] = Self.clamped(samples[i] * g, cap)
        }
        currentGain = g.isFinite && g >= 0 ? g : 1
    }

    /// Within ±cap; NaN and ±∞ become silence (Swift's `min`/`max` would pass NaN through).
    @inline(__always)
    static func clamped(_ x: Float, _ cap: Float) -> Float {
        x.isFinite ? min(max(x, -cap), cap) : 0
    }
}
