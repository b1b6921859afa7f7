import Foundation

/// The power of the bands the filterbank cannot resolve (`BandLayout.finelyAnalysedBandCount`),
/// read in a frame twice the filterbank's length with the same √Hann window and split at the
/// band edges (`BandLayout.levelWeights`).
///
/// Why: 187.5 Hz bins (256 points at 48 kHz) put the 250–500 Hz edge (354 Hz) inside a bin, so a
/// 250 Hz tone's window lobe leaves a third of its power in the 500 Hz band and a compressive rule
/// (FIG6) read the 250 Hz band 1.7 dB too soft and gave it up to 1.1 dB too much gain. With twice
/// the frame a tone at any band centre reads its level within 0.2 dB, and speech-shaped noise
/// reads the power between the band edges within 0.5 dB (`BandLevelTests`; a per-band boost for tones, tried
/// before, made that noise read 2.25 dB too loud). Only the level is read here: the signal path
/// and its 4.0 ms delay are the filterbank's, unchanged. The cost: in these bands the level
/// follows a 10.7 ms frame instead of 5.3 ms, so compression reacts to an onset about 3–4 ms later
/// (the output limiter still holds every peak).
final class FineBandLevels {
    private(set) var bandCount = 0
    private var frameSize = 0
    private var fft: RealFFT?
    private var window = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var history = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    /// The transform's own buffers (`RealFFT.samples` and `.spectrum`).
    private var frame = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var spectrum = UnsafeMutableBufferPointer<ComplexBin>(start: nil, count: 0)
    private var weightBin = UnsafeMutableBufferPointer<Int>(start: nil, count: 0)
    private var weightBand = UnsafeMutableBufferPointer<Int>(start: nil, count: 0)
    private var weightValue = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var powerScale: Float = 0
    private var framePower = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var hopsPerFrame = 1
    private var hopsSinceFrame = 0
    private var hopsUntilFull = 0

    /// `filterbankSize`: the filterbank's FFT length; the frame here is twice that. A frame is
    /// transformed every quarter frame (every second 64-sample hop at 48 kHz), the filterbank's own
    /// 75 % overlap: that halves the added cost, and the level in between is held.
    func prepare(bandCount: Int, filterbankSize: Int, hopSize: Int, sampleRate: Double) {
        release()
        self.bandCount = bandCount
        guard bandCount > 0 else { return }
        let n = 2 * filterbankSize
        frameSize = n
        let fft = RealFFT(size: n)
        self.fft = fft
        frame = fft.samples
        spectrum = fft.spectrum
        window = .allocate(capacity: n)
        for i in 0..<n { window[i] = Float(sin(Double.pi * Double(i) / Double(n))) }
        history = .allocate(capacity: n); history.initialize(repeating: 0)
        let weights = BandLayout.levelWeights(bands: 0..<bandCount, fftSize: n, sampleRate: sampleRate)
        weightBin = .allocate(capacity: weights.count); weightBand = .allocate(capacity: weights.count)
        weightValue = .allocate(capacity: weights.count)
        for (i, w) in weights.enumerated() {
            weightBin.initializeElement(at: i, to: w.bin)
            weightBand.initializeElement(at: i, to: w.band)
            weightValue.initializeElement(at: i, to: w.weight)
        }
        // Σ|X_k|² → mean-square power: 2/(n·Σw²), Σw² = n/2 for √Hann (as in the filterbank).
        powerScale = 4 / Float(n * n)
        framePower = .allocate(capacity: bandCount); framePower.initialize(repeating: 0)
        hopsPerFrame = max(1, n / 4 / hopSize)
        hopsSinceFrame = hopsPerFrame - 1
        hopsUntilFull = n / hopSize - 1
    }

    func release() {
        for buffer in [window, history, weightValue, framePower] { buffer.deallocate() }
        weightBin.deallocate(); weightBand.deallocate()
        window = .init(start: nil, count: 0); history = .init(start: nil, count: 0)
        frame = .init(start: nil, count: 0); weightValue = .init(start: nil, count: 0)
        framePower = .init(start: nil, count: 0)
        spectrum = .init(start: nil, count: 0)
        weightBin = .init(start: nil, count: 0); weightBand = .init(start: nil, count: 0)
        fft = nil
        bandCount = 0
    }

    deinit { release() }

    /// Appends `hop` samples (already through the `InputGuard`) and writes the mean-square power
    /// of bands `0..<bandCount` into `bandPower`, once the frame has filled: until then (the first
    /// 10 ms) it leaves the filterbank's band power there. A half-empty frame reads far too soft,
    /// and the noise reducer's minimum tracker would keep that for seconds.
    @inline(__always)
    func analyse(_ hop: UnsafePointer<Float>, count: Int, into bandPower: UnsafeMutablePointer<Float>) {
        guard bandCount > 0 else { return }
        let n = frameSize, h = history.baseAddress!
        h.update(from: h + count, count: n - count)
        (h + n - count).update(from: hop, count: count)
        if hopsUntilFull > 0 {
            hopsUntilFull -= 1
            return
        }
        hopsSinceFrame += 1
        if hopsSinceFrame >= hopsPerFrame {
            hopsSinceFrame = 0
            let f = frame.baseAddress!, w = window.baseAddress!
            for i in 0..<n { f[i] = h[i] * w[i] }
            fft.unsafelyUnwrapped.forward()
            for b in 0..<bandCount { framePower[b] = 0 }
            for i in 0..<weightValue.count {
                let k = weightBin[i]
                framePower[weightBand[i]] += weightValue[i] * (spectrum[k].r * spectrum[k].r + spectrum[k].i * spectrum[k].i)
            }
            for b in 0..<bandCount { framePower[b] *= powerScale }
        }
        for b in 0..<bandCount { bandPower[b] = framePower[b] }
    }
}
