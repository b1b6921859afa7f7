import AssistCore
import Foundation
import Testing
@testable import Hearing

@Suite("Weighted overlap-add filterbank")
struct FilterbankTests {
    @Test("with unit gains the output is the input delayed by N − R samples (perfect reconstruction)")
    func perfectReconstruction() {
        let bank = WOLAFilterbank()
        bank.prepare(fftSize: 256, hopSize: 64)
        var generator = SplitMix64(seed: 7)
        let input = (0..<4096).map { _ in Float.random(in: -0.5...0.5, using: &generator) }
        var output = [Float](repeating: 0, count: input.count)
        input.withUnsafeBufferPointer { x in
            output.withUnsafeMutableBufferPointer { y in
                for start in stride(from: 0, to: input.count, by: 64) {
                    bank.analyse(x.baseAddress! + start, stride: 1)
                    bank.synthesise(into: y.baseAddress! + start)
                }
            }
        }
        let delay = bank.latencyFrames
        #expect(delay == 192)
        var worst: Float = 0
        for n in 512..<input.count { worst = max(worst, abs(output[n] - input[n - delay])) }
        #expect(worst < 1e-5, "reconstruction error \(worst)")
    }

    @Test("band layout: a 1 kHz bin belongs to the 1 kHz band and takes its gain alone")
    func bandLayout() {
        let layout = BandLayout(fftSize: 256, sampleRate: 48_000)
        // Bin 5 is 937.5 Hz, between 750 and 1000 Hz; bin 16 is exactly 3000 Hz.
        #expect(layout.bandOfBin[5] == 3)
        #expect(layout.lowerBandOfBin[16] == 6 && layout.upperWeightOfBin[16] == 0)
        // Bins above 8 kHz·√2 are outside every band's level.
        #expect(layout.bandOfBin[128] == -1)
    }
}
