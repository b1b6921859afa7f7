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

    @Test("the real FFT puts a sine in its bin with amplitude n/2, inverts to n times the input, and gives the same bits every time")
    func realFFT() {
        let n = 256
        let first = RealFFT(size: n), second = RealFFT(size: n)
        // Bin 5 of 256 points, plus a little noise so that every bin carries something.
        var generator = SplitMix64(seed: 3)
        let input = (0..<n).map { i in
            Float(0.5 * cos(2 * Double.pi * 5 * Double(i) / Double(n))) + Float.random(in: -1e-3...1e-3, using: &generator)
        }
        for fft in [first, second] {
            for i in 0..<n { fft.samples[i] = input[i] }
            fft.forward()
        }
        let bin = first.spectrum[5]
        #expect(abs((bin.r * bin.r + bin.i * bin.i).squareRoot() - 0.5 * Float(n) / 2) < 0.1)
        // Two plans of the same size (FFTW_ESTIMATE) compute the same spectrum, bit for bit.
        #expect((0...(n / 2)).allSatisfy { first.spectrum[$0].r == second.spectrum[$0].r && first.spectrum[$0].i == second.spectrum[$0].i })
        first.inverse()
        var worst: Float = 0
        for i in 0..<n { worst = max(worst, abs(first.samples[i] / Float(n) - input[i])) }
        #expect(worst < 1e-6, "inverse(forward(x))/n − x reached \(worst)")
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
