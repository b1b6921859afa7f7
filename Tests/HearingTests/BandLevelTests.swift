import Foundation
import Testing
@testable import Hearing

/// The compressor's input level in the bands the 256-point filterbank cannot resolve
/// (250–1500 Hz at 48 kHz): right for tones at the band centres and for broadband sound alike.
@Suite("Band levels of the narrow low bands")
struct BandLevelTests {
    static let rate = 48_000.0

    /// Mean of the per-hop band powers (mean square) after `skip` samples.
    static func meanBandPowers(_ signal: [Float], skip: Int) -> [Double] {
        let layout = BandLayout(fftSize: 256, sampleRate: rate)
        let levels = FineBandLevels()
        levels.prepare(bandCount: layout.finelyAnalysedBandCount, filterbankSize: 256, hopSize: 64, sampleRate: rate)
        var sums = [Double](repeating: 0, count: levels.bandCount)
        var power = [Float](repeating: 0, count: levels.bandCount)
        var hops = 0
        signal.withUnsafeBufferPointer { x in
            for start in stride(from: 0, to: signal.count - 63, by: 64) {
                levels.analyse(x.baseAddress! + start, count: 64, into: &power)
                guard start >= skip else { continue }
                for b in sums.indices { sums[b] += Double(power[b]) }
                hops += 1
            }
        }
        return sums.map { $0 / Double(hops) }
    }

    @Test("the bands narrower than the window's 3-bin main lobe (250–1500 Hz with 187.5 or 172 Hz bins) are read in the longer frame")
    func whichBands() {
        #expect(BandLayout(fftSize: 256, sampleRate: 48_000).finelyAnalysedBandCount == 5)
        #expect(BandLayout(fftSize: 512, sampleRate: 96_000).finelyAnalysedBandCount == 5)
        #expect(BandLayout(fftSize: 256, sampleRate: 44_100).finelyAnalysedBandCount == 5)
    }

    @Test("a steady tone at each band centre reads its own level in its band within 0.2 dB",
          arguments: [(250.0, 0), (500, 1), (750, 2), (1000, 3), (1500, 4)])
    func toneLevel(frequencyHz: Double, band: Int) {
        let amplitude = 0.1
        let tone = TestSignals.tone(frequencyHz: frequencyHz, amplitude: amplitude, seconds: 0.3, sampleRate: Self.rate)
        let powers = Self.meanBandPowers(tone, skip: 1024)
        let error = 10 * log10(powers[band] / (amplitude * amplitude / 2))
        print("BANDLEVEL tone \(frequencyHz) Hz: \(error) dB")
        #expect(abs(error) <= 0.2, "\(frequencyHz) Hz tone reads \(error) dB in its band")
    }

    @Test("speech-shaped noise reads the power between each band's edges within 0.5 dB (no boost for tones that broadband sound would get)")
    func broadbandLevel() {
        let noise = TestSignals.speechShapedNoise(rmsDBFS: -45, seconds: 3, sampleRate: Self.rate, seed: 3)
        let powers = Self.meanBandPowers(noise, skip: 1024)
        let reference = ChainVerification.bandPowers(noise, channel: 0, channels: 1, from: 0, sampleRate: Self.rate)
        for b in powers.indices {
            let error = 10 * log10(powers[b] / reference[b])
            print("BANDLEVEL speech-shaped noise, band \(BandLayout.centreFrequenciesHz[b]) Hz: \(error) dB")
            #expect(abs(error) <= 0.5, "band \(BandLayout.centreFrequenciesHz[b]) Hz reads \(error) dB against its edges")
        }
    }
}
