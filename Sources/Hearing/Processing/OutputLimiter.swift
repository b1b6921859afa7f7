import Foundation

/// Broadband peak limiter that enforces the maximum output and keeps samples inside full scale.
///
/// It sees a whole hop before writing it, so it can lower the gain ahead of a peak inside the
/// hop without adding delay: a backward pass gives each sample the lowest gain any later
/// sample in the hop needs, relaxed by at most 1/R per sample (a linear ramp into the peak); a
/// forward pass releases towards unity with a 50 ms time constant. A final clamp at the cap
/// guards against rounding, so no sample ever exceeds it.
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
        if bypassed {
            // Release back to unity smoothly, but still never let a sample past full scale.
            for i in 0..<count {
                currentGain += releaseCoefficient * (1 - currentGain)
                samples[i] = min(max(samples[i] * currentGain, -1), 1)
            }
            return
        }
        var next: Float = 1
        for i in stride(from: count - 1, through: 0, by: -1) {
            let magnitude = abs(samples[i])
            let need = magnitude > cap ? cap / magnitude : 1
            next = min(need, next + rampPerSample)
            needed[i] = next
        }
        var g = currentGain
        for i in 0..<count {
            g = min(needed[i], g + releaseCoefficient * (1 - g))
            samples[i] = min(max(samples[i] * g, -cap), cap)
        }
        currentGain = g
    }
}
