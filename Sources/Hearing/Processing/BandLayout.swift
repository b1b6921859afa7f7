import Foundation

/// Which FFT bins make up each compression band, and how each bin's gain is interpolated
/// from the band gains. Bands are centred at the audiometric frequencies 250 Hz…8 kHz (the
/// 125 Hz threshold is kept in the audiogram but has no band: a 256-point window at 48 kHz
/// cannot resolve it from 250 Hz).
struct BandLayout {
    static let centreFrequenciesHz: [Double] = [250, 500, 750, 1000, 1500, 2000, 3000, 4000, 6000, 8000]
    static var bandCount: Int { centreFrequenciesHz.count }
    /// Band edges: the geometric means of neighbouring centres, 0 Hz below the lowest band and
    /// half an octave above the highest. `bandCount + 1` values.
    static let edgesHz: [Double] = {
        let centres = centreFrequenciesHz
        var edges = [0.0]
        for i in 0..<(centres.count - 1) { edges.append((centres[i] * centres[i + 1]).squareRoot()) }
        edges.append(centres.last! * 2.0.squareRoot())
        return edges
    }()

    /// Band of each bin for level measurement (the bands from `finelyAnalysedBandCount` up; the
    /// narrow ones below are read by `FineBandLevels`); −1 for bins above the top band (above
    /// 11.3 kHz), which carry little speech energy and would otherwise dominate the 8 kHz band's level.
    let bandOfBin: [Int]
    /// Gain interpolation: bin k takes (1 − w)·G[lower] + w·G[lower + 1] in dB, linear in log frequency.
    let lowerBandOfBin: [Int]
    let upperWeightOfBin: [Float]
    /// 1 / width of each band in bins (its bin count, or for a finely read band the width between
    /// its edges), to turn band power into power per bin.
    let inverseBinCount: [Float]
    /// Bands narrower than the filterbank window's main lobe, 3 bins (250–1500 Hz with 187.5 Hz bins): their
    /// level is read in a frame twice as long (`FineBandLevels`), whose bins split them at their
    /// edges; the filterbank's own bins would spread a tone's power over two bands.
    let finelyAnalysedBandCount: Int

    init(fftSize: Int, sampleRate: Double) {
        let centres = Self.centreFrequenciesHz
        let binCount = fftSize / 2 + 1
        let edges = Self.edgesHz
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
        let binWidth = sampleRate / Double(fftSize)
        // A band narrower than the √Hann window's main lobe (3 bins) cannot hold a tone at its
        // centre: part of the tone's power lands in the neighbouring bands. Read up to the highest
        // such band, so the finely read bands are contiguous from the lowest.
        let fineCount = ((0..<centres.count).last { edges[$0 + 1] - edges[$0] < 3 * binWidth } ?? -1) + 1
        finelyAnalysedBandCount = fineCount
        bandOfBin = band
        // A finely analysed band's power covers its edges exactly: per bin, that is its width in bins.
        inverseBinCount = (0..<centres.count).map { b in
            b < fineCount ? Float(binWidth / (edges[b + 1] - edges[b])) : 1 / Float(max(1, band.filter { $0 == b }.count))
        }
        lowerBandOfBin = lower
        upperWeightOfBin = weight
    }

    /// How much of each bin's power belongs to each band, for a level read from an `fftSize`-point
    /// frame: the share of the bin's width (bin frequency ± half a bin) that lies between the
    /// band's edges. A broadband sound's band power then covers exactly the band, and a tone at a
    /// band centre (whose window lobe falls within the band) reads its own level.
    static func levelWeights(bands: Range<Int>, fftSize: Int, sampleRate: Double) -> [(bin: Int, band: Int, weight: Float)] {
        let edges = edgesHz, binWidth = sampleRate / Double(fftSize)
        var weights: [(bin: Int, band: Int, weight: Float)] = []
        for k in 0...(fftSize / 2) {
            let low = max(0, (Double(k) - 0.5) * binWidth), high = (Double(k) + 0.5) * binWidth
            for b in bands {
                let overlap = min(high, edges[b + 1]) - max(low, edges[b])
                if overlap > 0 { weights.append((k, b, Float(overlap / (high - low)))) }
            }
        }
        return weights
    }
}
