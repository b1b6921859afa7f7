import Foundation
import Testing
@testable import Hearing

@Suite("The running chain meets its targets")
struct ChainTests {
    static let bands: [Double] = [250, 500, 750, 1000, 1500, 2000, 3000, 4000, 6000]

    @Test("measured insertion gain at 65 dB SPL is within ±2 dB of the NAL-R target, 250 Hz–6 kHz (sloping loss)")
    func insertionGainNalR() throws {
        let ear = try TestAudiograms.slopingHighFrequency()
        let processor = try makeProcessor(left: ear, rule: .nalR)
        let prescription = processor.control.settings.prescription.left
        for f in Self.bands {
            let target = prescription.band(atHz: f)!.insertionGain(bandLevelSPL: 65)
            let measured = measuredInsertionGain(processor, frequencyHz: f, inputSPL: 65)
            #expect(abs(measured - target) <= 2, "\(f) Hz: measured \(measured) dB, target \(target) dB")
        }
    }

    @Test("measured insertion gain at 65 dB SPL is within ±2 dB of the FIG6 (compressive) target, 250 Hz–6 kHz")
    func insertionGainFig6() throws {
        let ear = try TestAudiograms.reverseSlope()
        let processor = try makeProcessor(left: ear, rule: .fig6)
        let prescription = processor.control.settings.prescription.left
        for f in Self.bands {
            let target = prescription.band(atHz: f)!.insertionGain(bandLevelSPL: 65)
            let measured = measuredInsertionGain(processor, frequencyHz: f, inputSPL: 65)
            #expect(abs(measured - target) <= 2, "\(f) Hz: measured \(measured) dB, target \(target) dB")
        }
    }

    @Test("a 100 dB SPL sweep through a high-gain fitting never exceeds the maximum output and never clips")
    func limiterHoldsMaximumOutput() throws {
        let processor = try makeProcessor(left: try .flat(80), rule: .nalR, bypass: [], maximumOutputSPL: 100)
        let calibration = processor.control.settings.calibration
        let sweep = TestSignals.sweep(fromHz: 200, toHz: 8000, amplitude: calibration.inputSineAmplitude(spl: 100),
                                      seconds: 0.6, sampleRate: 48_000)
        let output = processor.processAll(sweep)
        let cap = Float(amplitude(decibels: calibration.outputDBFS(fromSPL: 100)))
        let peak = SignalMeasurement.peak(output, frames: 0..<sweep.count, channel: 0, channels: 2)
        #expect(peak <= cap * 1.0001, "peak \(20 * log10(peak)) dBFS above the cap \(20 * log10(cap)) dBFS")
        #expect(peak < 1, "clipped")
        // And the limiter is actually doing the work: without it the 100 dB SPL input with ~40 dB gain would be far above.
        #expect(peak > cap * 0.8)
    }

    @Test("the right ear's prescription is applied only to the right channel")
    func binaural() throws {
        let left = try EarAudiogram.flat(20)
        let right = try EarAudiogram.flat(60, ear: .right)
        let processor = try makeProcessor(left: left, right: right, rule: .nalR, inputChannels: 2)
        let settings = processor.control.settings.prescription
        let leftGain = measuredInsertionGain(processor, frequencyHz: 1000, inputSPL: 65, ear: .left)
        let rightProcessor = try makeProcessor(left: left, right: right, rule: .nalR, inputChannels: 2)
        let rightGain = measuredInsertionGain(rightProcessor, frequencyHz: 1000, inputSPL: 65, ear: .right)
        #expect(abs(leftGain - settings.left.band(atHz: 1000)!.mediumGain) < 1)
        #expect(abs(rightGain - settings.right.band(atHz: 1000)!.mediumGain) < 1)
        #expect(rightGain - leftGain > 10)
    }

    @Test("stereo input keeps its sides: sound only on the right stays on the right")
    func stereoKeepsSides() throws {
        let processor = try makeProcessor(left: try .flat(40), rule: .nalR, inputChannels: 2)
        let tone = TestSignals.tone(frequencyHz: 1000, amplitude: 0.05, seconds: 0.2, sampleRate: 48_000)
        let input: [Float] = tone.flatMap { x -> [Float] in [0, x] }
        let output = processor.processAll(input)
        #expect(SignalMeasurement.peak(output, frames: 0..<tone.count, channel: 0, channels: 2) == 0)
        #expect(SignalMeasurement.peak(output, frames: 0..<tone.count, channel: 1, channels: 2) > 0.01)
    }

    @Test("mono input feeds both ears")
    func monoFeedsBoth() throws {
        let processor = try makeProcessor(left: try .flat(40), rule: .nalR)
        let output = processor.processAll(TestSignals.tone(frequencyHz: 1000, amplitude: 0.05, seconds: 0.1, sampleRate: 48_000))
        #expect(SignalMeasurement.rms(output, frames: 2000..<4800, channel: 0, channels: 2) > 0.01)
        #expect(SignalMeasurement.rms(output, frames: 2000..<4800, channel: 1, channels: 2) > 0.01)
    }

    @Test("algorithmic latency from an impulse is 192 samples (4 ms) at 48 kHz")
    func latency() throws {
        let processor = try makeProcessor(left: try .flat(0), rule: .halfGain)
        let input = TestSignals.impulse(at: 1000, amplitude: 0.1, count: 4800)
        let output = processor.processAll(input)
        let left = stride(from: 0, to: output.count, by: 2).map { abs(output[$0]) }
        let peakIndex = left.indices.max { left[$0] < left[$1] }!
        #expect(peakIndex - 1000 == processor.latencyFrames)
        #expect(Double(processor.latencyFrames) / 48_000 <= 0.006)
    }

    @Test("a program switch changes the output within one block")
    func programSwitch() throws {
        let ear = try EarAudiogram.flat(40)
        let steady = try makeProcessor(left: ear, rule: .nalR, program: .quiet)
        let switched = try makeProcessor(left: ear, rule: .nalR, program: .quiet)
        let input = TestSignals.tone(frequencyHz: 250, amplitude: 0.05, seconds: 0.2, sampleRate: 48_000)
        let switchBlock = 100
        var firstDifferentBlock: Int?
        let a = steady.processAll(input)
        let b = switched.processAll(input) { block in
            if block == switchBlock - 1 { try? switched.control.select(.conversationInNoise) }
        }
        for block in 0..<(input.count / 64) {
            let range = (block * 64 * 2)..<((block + 1) * 64 * 2)
            if zip(a[range], b[range]).contains(where: { abs($0 - $1) > 1e-4 }) { firstDifferentBlock = block; break }
        }
        #expect(firstDifferentBlock == switchBlock)
    }
}

@Suite("Formats: block sizes and sample rates")
struct FormatTests {
    @Test("every supported block size and rate keeps the 1 kHz insertion gain and a latency of N − R samples",
          arguments: [(48_000.0, 16), (48_000.0, 32), (48_000.0, 128), (44_100.0, 64), (96_000.0, 64)])
    func formats(sampleRate: Double, blockSize: Int) throws {
        let processor = try makeProcessor(left: try .flat(40), rule: .nalR, blockSize: blockSize, sampleRate: sampleRate)
        let target = processor.control.settings.prescription.left.band(atHz: 1000)!.mediumGain
        #expect(abs(measuredInsertionGain(processor, frequencyHz: 1000, inputSPL: 65) - target) < 0.5)
        let format = processor.format!
        #expect(processor.latencyFrames == format.fftSize - format.hopSize)
        #expect(Double(processor.latencyFrames) / sampleRate <= 0.006)
        let fresh = try makeProcessor(left: try .flat(0), rule: .halfGain, blockSize: blockSize, sampleRate: sampleRate)
        let output = fresh.processAll(TestSignals.impulse(at: 1000, amplitude: 0.1, count: 4096))
        let left = stride(from: 0, to: output.count, by: 2).map { abs(output[$0]) }
        #expect(left.indices.max { left[$0] < left[$1] }! - 1000 == fresh.latencyFrames)
    }
}

@Suite("Robustness")
struct RobustnessTests {
    @Test("NaN and infinite input samples neither reach the output nor stop the chain")
    func nonFiniteInput() throws {
        let processor = try makeProcessor(left: try .flat(40), rule: .fig6, bypass: [])
        var input = TestSignals.tone(frequencyHz: 1000, amplitude: 0.05, seconds: 0.3, sampleRate: 48_000)
        input[5000] = .nan; input[5001] = .infinity; input[5002] = -.infinity
        let output = processor.processAll(input)
        #expect(output.allSatisfy { $0.isFinite && abs($0) < 1 })
        #expect(SignalMeasurement.rms(output, frames: (input.count - 4800)..<input.count, channel: 0, channels: 2) > 0.01)
    }
}

@Suite("Speech-referenced levels")
struct SpeechReferenceTests {
    @Test("the ANSI S3.5 normal-effort speech spectrum sums to 62.35 dB SPL, and every band lies below the overall level")
    func spectrum() {
        #expect(abs(SpeechSpectrum.overallLevel - 62.35) < 0.05)
        #expect(SpeechSpectrum.chainBandOffsetsDecibels.allSatisfy { $0 > 3 && $0 < 30 })
    }

    @Test("with speech-referenced levels, speech-shaped noise at 65 dB SPL gets the 65 dB SPL FIG6 gain in every band (±2 dB)")
    func speechGetsMediumGain() throws {
        let ear = try EarAudiogram.flat(50)
        let prescription = try Prescription(audiogram: Audiogram(left: ear, right: ear),
                                            options: FittingOptions(rule: .fig6, levelReference: .speech))
        let processor = HearingAidProcessor(control: try HearingAidControl(settings: HearingAidSettings(
            prescription: prescription, bypass: [.noiseReduction], startupRampSeconds: 0)))
        try processor.prepare(try ProcessingFormat(sampleRate: 48_000))
        let calibration = LevelCalibration()
        let noise = TestSignals.speechShapedNoise(rmsDBFS: calibration.inputDBFS(fromSPL: 65), seconds: 1.5, sampleRate: 48_000)
        let output = processor.processAll(noise)
        let inBands = ChainVerification.bandPowers(noise, channel: 0, channels: 1, from: 24_000, sampleRate: 48_000)
        let outBands = ChainVerification.bandPowers(output, channel: 0, channels: 2, from: 24_000, sampleRate: 48_000)
        for (b, f) in BandLayout.centreFrequenciesHz.enumerated() where f <= 6000 {
            let measured = 10 * log10(outBands[b] / inBands[b])
            let medium = prescription.left.band(atHz: f)!.mediumGain
            #expect(abs(measured - medium) <= 2, "\(f) Hz: \(measured) dB against the 65 dB SPL target \(medium) dB")
        }
    }
}
