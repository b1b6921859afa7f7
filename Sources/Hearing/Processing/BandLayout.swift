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
    /// Multiplies each band's measured power so that a steady tone at the band's centre reads its
    /// own level: a band level is defined as what such a tone measures (`BandTarget`), but the
    /// √Hann window spreads a tone over ±2 bins, and where a band is only one or two bins wide
    /// part of it falls into the neighbours (a 250 Hz tone leaves 34 % of its power in the
    /// 375 Hz bin of the 500 Hz band, a 750 Hz tone 18 % in the 562/937 Hz bins). Computed from
    /// the window, averaged over the tone's phase; 1 where the band holds the whole tone.
    /// (A function: the chain needs it once when prepared, the 2048-point verification analysis never.)
    func toneLevelCorrection() -> [Float] {
        let centres = Self.centreFrequenciesHz
        let binCount = bandOfBin.count, fftSize = 2 * (binCount - 1)
        return centres.indices.map { b in
            let f = centres[b] / sampleRate
            // Power per bin of a unit tone through the √Hann window, summed over sine and cosine
            // phase (the two quadratures: their sum is the phase average, doubled).
            var inBand = 0.0, total = 0.0
            for k in 0..<binCount {
                var power = 0.0
                for phase in [0.0, Double.pi / 2] {
                    var re = 0.0, im = 0.0
                    for n in 0..<fftSize {
                        let x = sin(Double.pi * Double(n) / Double(fftSize)) * sin(2 * Double.pi * f * Double(n) + phase)
                        let angle = 2 * Double.pi * Double(k * n) / Double(fftSize)
                        re += x * cos(angle); im -= x * sin(angle)
                    }
                    power += re * re + im * im
                }
                total += power
                if bandOfBin[k] == b { inBand += power }
            }
            return inBand > 0 ? Float(total / inBand) : 1
        }
    }

    let sampleRate: Double
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
        self.sampleRate = sampleRate
    }
}
