import CKissFFT
#if canImport(Glibc)
import Glibc
#endif

/// The one wrapper of KissFFT: a real FFT of fixed size, forward and inverse, owning both
/// plans and freeing them in `deinit`. Nothing else touches KissFFT pointers.
///
/// Scaling is KissFFT's: forward unscaled, inverse unscaled (inverse(forward(x)) = n·x).
final class RealFFT {
    let size: Int
    private let forwardPlan: kiss_fftr_cfg
    private let inversePlan: kiss_fftr_cfg

    /// `size` must be even (KissFFT's real transform requirement); the chain uses powers of two.
    init(size: Int) {
        precondition(size % 2 == 0 && size >= 16, "real FFT size must be even")
        self.size = size
        guard let forward = kiss_fftr_alloc(Int32(size), 0, nil, nil),
              let inverse = kiss_fftr_alloc(Int32(size), 1, nil, nil) else {
            fatalError("KissFFT could not allocate a plan of \(size) points (out of memory)")
        }
        forwardPlan = forward
        inversePlan = inverse
    }

    deinit {
        // kiss_fftr_free is a macro for free().
        free(UnsafeMutableRawPointer(forwardPlan))
        free(UnsafeMutableRawPointer(inversePlan))
    }

    /// `time` holds `size` samples; `spectrum` receives `size/2 + 1` bins.
    @inline(__always)
    func forward(_ time: UnsafePointer<Float>, _ spectrum: UnsafeMutablePointer<kiss_fft_cpx>) {
        kiss_fftr(forwardPlan, time, spectrum)
    }

    /// `spectrum` holds `size/2 + 1` bins; `time` receives `size` samples scaled by `size`.
    @inline(__always)
    func inverse(_ spectrum: UnsafePointer<kiss_fft_cpx>, _ time: UnsafeMutablePointer<Float>) {
        kiss_fftri(inversePlan, spectrum, time)
    }
}

typealias ComplexBin = kiss_fft_cpx
