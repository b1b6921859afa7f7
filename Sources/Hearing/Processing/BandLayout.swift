import Foundation

/// Which FFT bins make up each compression band, and how each bin's gain is interpolated
/// from the band gains. Bands are centred at the audiometric frequencies 250 Hz…8 kHz (the
/// 125 Hz threshold is kept in the audiogram but has no band: a 256-point window at 48 kHz
/// cannot resolve it from 250 Hz).
struct BandLayout {
    static let centreFrequenciesHz: [Double] = [250, 500, 750, 1000, 1500, 2000, 3000, 4000, 6000, 8000]
    static var bandCount: Int { centreFrequenciesHz.count }

    /// Band of each bin for level measurement; −1 for bins above the top band (above 11.3 kHz),
    /// which carry little speech energy and would otherwise dominate the 8 kHz band's level.
    let bandOfBin: [Int]
    /// Gain interpolation: bin k takes (1 − w)·G[lower] + w·G[lower + 1] in dB, linear in log frequency.
    let lowerBandOfBin: [Int]
    let upperWeightOfBin: [Float]
    /// 1 / number of bins in each band, to turn band power into power per bin.
    let inverseBinCount: [Float]
    /// The share (of the difference in dB) of the 500 Hz band's gain that a 250 Hz tone gets
    /// through the bins between them. Measured, not derived: with 187.5 Hz bins (256 points at
    /// 48 kHz, 512 at 96 kHz) NAL-R gains at 250 Hz came out 0.2 × (G500 − G250) too high
    /// (up to +1.8 dB over the Bisgaard audiograms; 0.1 dB with this correction, see
    /// `BisgaardAccuracyTests`). Other bin widths (44.1 kHz) are not corrected.
    let lowestBandLeakage: Float

    init(fftSize: Int, sampleRate: Double) {
        let centres = Self.centreFrequenciesHz
        let binCount = fftSize / 2 + 1
        var edges = [0.0]
        for i in 0..<(centres.count - 1) { edges.append((centres[i] * centres[i + 1]).squareRoot()) }
        edges.append(centres.last! * 2.0.squareRoot())
        var band = [Int](repeating: -1, count: binCount)
        var lower = [Int](repeating: 0, count: binCount)
        var weight = [Float](repeating: 0, count: binCount)
        for k in 0..<binCount {
            let f = Double(k) * sampleRate / Double(fftSize)
            if let b = (0..<centres.count).first(where: { f >= edges[$0] && f < edges[$0 + 1] }) { band[k] = b }
            if f <= centres[0] {
                lower[k] = 0; weight[k] = 0
            } else if f >= centres.last! {
                lower[k] = centres.count - 2; weight[k] = 1
            } else {
                let i = (0..<(centres.count - 1)).first { f >= centres[$0] && f < centres[$0 + 1] }!
                lower[k] = i
                weight[k] = Float(log2(f / centres[i]) / log2(centres[i + 1] / centres[i]))
            }
        }
        lowestBandLeakage = sampleRate / Double(fftSize) == 187.5 ? 0.2 : 0
        bandOfBin = band
        inverseBinCount = (0..<centres.count).map { b in 1 / Float(max(1, band.filter { $0 == b }.count)) }
        lowerBandOfBin = lower
        upperWeightOfBin = weight
    }
}
