import CFFTW
import Synchronization

/// The one wrapper of FFTW (single precision, `libfftw3f`): a real FFT of fixed size, forward and
/// inverse, on two buffers it owns (allocated by FFTW, so aligned for its SIMD code), with both
/// plans and both buffers freed in `deinit`. Nothing else touches FFTW pointers.
///
/// Why FFTW: the chain's 256-point pair and 512-point forward transform were about half its
/// time with KissFFT (about 2.9 µs per hop and ear); FFTW's SIMD transforms take about 0.8 µs
/// (measured on this machine, FFTW_ESTIMATE plans; BENCHMARKS.md, the openMHA comparison).
///
/// Scaling is FFTW's: forward unscaled, inverse unscaled (inverse(forward(x)) = n·x).
/// Plans are made with FFTW_ESTIMATE: no trial runs, so a size always gets the same algorithm
/// and the output is the same bit for bit from run to run (FFTW_MEASURE may choose differently).
final class RealFFT {
    let size: Int
    /// `size` samples: what `forward()` transforms, and what `inverse()` writes.
    let samples: UnsafeMutableBufferPointer<Float>
    /// `size/2 + 1` bins: what `forward()` writes, and what `inverse()` transforms — and
    /// overwrites (FFTW's complex-to-real transforms use their input as scratch space).
    let spectrum: UnsafeMutableBufferPointer<ComplexBin>
    private let forwardPlan: fftwf_plan
    private let inversePlan: fftwf_plan

    /// FFTW's planner is not thread-safe (executing a plan is): plans are made and destroyed one
    /// at a time, process-wide (tests and the live aid prepare chains on several threads).
    private static let planner = Mutex(())

    /// `size` ≥ 2; the chain uses powers of two, the test signals any length.
    init(size: Int) {
        precondition(size >= 2, "real FFT size must be at least 2")
        self.size = size
        guard let time = fftwf_malloc(size * MemoryLayout<Float>.stride),
              let bins = fftwf_malloc((size / 2 + 1) * MemoryLayout<ComplexBin>.stride) else {
            fatalError("FFTW could not allocate the buffers of a \(size)-point transform (out of memory)")
        }
        let real = time.bindMemory(to: Float.self, capacity: size)
        real.initialize(repeating: 0, count: size)
        samples = UnsafeMutableBufferPointer(start: real, count: size)
        spectrum = UnsafeMutableBufferPointer(start: bins.bindMemory(to: ComplexBin.self, capacity: size / 2 + 1),
                                              count: size / 2 + 1)
        spectrum.initialize(repeating: ComplexBin(r: 0, i: 0))
        // fftwf_complex is float[2], laid out as ComplexBin.
        let complex = bins.assumingMemoryBound(to: fftwf_complex.self)
        var planned: (forward: fftwf_plan?, inverse: fftwf_plan?) = (nil, nil)
        Self.planner.withLock { _ in
            planned.forward = fftwf_plan_dft_r2c_1d(Int32(size), real, complex, UInt32(FFTW_ESTIMATE))
            planned.inverse = fftwf_plan_dft_c2r_1d(Int32(size), complex, real, UInt32(FFTW_ESTIMATE))
        }
        guard let forward = planned.forward, let inverse = planned.inverse else {
            fatalError("FFTW could not plan a \(size)-point real transform")
        }
        forwardPlan = forward
        inversePlan = inverse
    }

    deinit {
        Self.planner.withLock { _ in
            fftwf_destroy_plan(forwardPlan)
            fftwf_destroy_plan(inversePlan)
        }
        fftwf_free(samples.baseAddress)
        fftwf_free(spectrum.baseAddress)
    }

    /// `samples` → `spectrum`.
    @inline(__always)
    func forward() { fftwf_execute(forwardPlan) }

    /// `spectrum` → `samples`, scaled by `size`; `spectrum` is left undefined.
    @inline(__always)
    func inverse() { fftwf_execute(inversePlan) }
}

/// One complex FFT bin, laid out as FFTW's `fftwf_complex` (real, then imaginary).
struct ComplexBin {
    var r: Float
    var i: Float
}
