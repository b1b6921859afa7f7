import AssistCore
import Foundation
import Testing
@testable import Hearing

@Suite("Each processing stage on its own")
struct StageTests {
    @Test("the compressor follows a level step with a fast attack and a slow release")
    func compressorAttackRelease() throws {
        let compressor = WideDynamicRangeCompressor()
        let hop = 64.0 / 48_000
        compressor.prepare(bandCount: 1, hopSeconds: hop, inputFullScaleSPL: 110)
        let target = try EarPrescription(ear: .left, audiogram: try .flat(50), options: FittingOptions(rule: .fig6)).band(atHz: 1000)!
        var level: Float = 0, gain: Float = 0
        func run(levelSPL: Float, seconds: Double) {
            var power = powf(10, (levelSPL - 110) / 10) / 2
            for _ in 0..<Int(seconds / hop) {
                compressor.process(bandPower: &power, targets: [target], attackSeconds: 0.005, releaseSeconds: 0.08,
                                   inputFullScaleSPL: 110, levelsSPL: &level, gainsDecibels: &gain)
            }
        }
        run(levelSPL: 50, seconds: 0.5)
        #expect(abs(Double(gain) - target.softGain) < 0.1)
        run(levelSPL: 80, seconds: 0.02) // four attack time constants
        #expect(abs(Double(gain) - target.loudGain) < 0.5)
        run(levelSPL: 50, seconds: 0.02) // a fraction of the release time: gain still low
        #expect(Double(gain) < target.mediumGain)
        run(levelSPL: 50, seconds: 0.8)
        #expect(abs(Double(gain) - target.softGain) < 0.1)
    }

    @Test("the limiter caps every sample, ramps into a peak inside the hop and releases afterwards")
    func limiter() {
        let limiter = OutputLimiter()
        limiter.prepare(hopSize: 64, sampleRate: 48_000)
        var block = [Float](repeating: 0.1, count: 64)
        block[40] = 0.9
        block.withUnsafeMutableBufferPointer { limiter.process($0.baseAddress!, count: 64, peakCap: 0.5, bypassed: false) }
        #expect(block.allSatisfy { abs($0) <= 0.5 })
        #expect(abs(block[40] - 0.5) < 1e-6)
        // Gain falls gradually before the peak rather than stepping at it.
        #expect(block[39] > block[40] * 0.1 / 0.9 && block[0] > block[39])
        var quiet = [Float](repeating: 0.1, count: 64)
        for _ in 0..<200 { quiet.withUnsafeMutableBufferPointer { limiter.process($0.baseAddress!, count: 64, peakCap: 0.5, bypassed: false) }; quiet = .init(repeating: 0.1, count: 64) }
        #expect(limiter.currentGain > 0.99)
    }

    @Test("noise reduction lowers steady noise by most of its maximum and leaves a tone 20 dB above it")
    func noiseReduction() {
        let reducer = NoiseReducer()
        let hop = 64.0 / 48_000
        reducer.prepare(bandCount: 2, hopSeconds: hop)
        var generator = SplitMix64(seed: 3)
        var gains: [Float] = [0, 0]
        var bandPower: [Float] = [0, 0]
        for i in 0..<Int(3 / hop) {
            // Band 0: steady noise whose per-frame power fluctuates like a 4-bin band's χ² estimate.
            let chiSquare = (0..<8).map { _ in powf(Float.random(in: -1...1, using: &generator), 2) }.reduce(0, +) / 8 * 3
            bandPower[0] = 1e-4 * chiSquare
            // Band 1: the same noise with speech-like bursts 20 dB above it in the last second.
            bandPower[1] = 1e-4 * chiSquare + (i > Int(2 / hop) ? 1e-2 : 0)
            reducer.process(bandPower: &bandPower, maximumAttenuationDecibels: 12, gainsDecibels: &gains)
        }
        #expect(gains[0] < -9, "steady noise attenuated by \(gains[0]) dB")
        #expect(gains[1] > -1, "speech attenuated by \(gains[1]) dB")
    }
}

@Suite("Controls: volume, mute, ramp, bypass, noise reduction in the chain")
struct ControlTests {
    @Test("volume moves in 2 dB steps and stops at the fitter's limits")
    func volumeSteps() throws {
        let processor = try makeProcessor(left: try .flat(40))
        let control = processor.control
        #expect(try control.volumeUp() == 2)
        for _ in 0..<10 { try control.volumeUp() }
        #expect(control.settings.volumeDecibels == 6)
        for _ in 0..<20 { try control.volumeDown() }
        #expect(control.settings.volumeDecibels == -12)
    }

    @Test("volume up raises the measured output by the step")
    func volumeChangesOutput() throws {
        let a = try makeProcessor(left: try .flat(40))
        let before = measuredInsertionGain(a, frequencyHz: 1000, inputSPL: 65)
        let b = try makeProcessor(left: try .flat(40))
        try b.control.volumeUp(); try b.control.volumeUp()
        let after = measuredInsertionGain(b, frequencyHz: 1000, inputSPL: 65)
        #expect(abs(after - before - 4) < 0.2)
    }

    @Test("mute silences the output within 20 ms and unmute brings it back")
    func mute() throws {
        let processor = try makeProcessor(left: try .flat(40))
        let tone = TestSignals.tone(frequencyHz: 1000, amplitude: 0.05, seconds: 0.3, sampleRate: 48_000)
        let muteBlock = 150, unmuteBlock = 190
        let output = processor.processAll(tone) { block in
            if block == muteBlock - 1 { try? processor.control.setMuted(true) }
            if block == unmuteBlock - 1 { try? processor.control.setMuted(false) }
        }
        let mutedStart = (muteBlock * 64) + 960 // 20 ms later
        #expect(SignalMeasurement.peak(output, frames: mutedStart..<(unmuteBlock * 64), channel: 0, channels: 2) < 1e-4)
        #expect(SignalMeasurement.rms(output, frames: (tone.count - 2000)..<tone.count, channel: 0, channels: 2) > 0.01)
    }

    @Test("after a new prescription the gain ramps in gently instead of jumping")
    func gainRamp() throws {
        let processor = try makeProcessor(left: try .flat(60), startupRampSeconds: 1)
        let target = processor.control.settings.prescription.left.band(atHz: 1000)!.mediumGain
        let early = measuredInsertionGain(processor, frequencyHz: 1000, inputSPL: 65, seconds: 0.2, measureSeconds: 0.05)
        #expect(early < target * 0.3)
        let late = measuredInsertionGain(processor, frequencyHz: 1000, inputSPL: 65, seconds: 1.0, measureSeconds: 0.1)
        #expect(abs(late - target) < 1)
        // A new prescription restarts the ramp; a volume change does not.
        try processor.control.volumeUp()
        let afterVolume = measuredInsertionGain(processor, frequencyHz: 1000, inputSPL: 65, seconds: 0.1, measureSeconds: 0.05)
        #expect(afterVolume > target)
        let louder = try Prescription(audiogram: Audiogram(left: try .flat(70), right: try .flat(70)), options: FittingOptions(rule: .nalR))
        try processor.control.setPrescription(louder)
        let restarted = measuredInsertionGain(processor, frequencyHz: 1000, inputSPL: 65, seconds: 0.1, measureSeconds: 0.05)
        #expect(restarted < target * 0.3)
    }

    @Test("bypassing compression makes the chain transparent (0 dB insertion gain)")
    func bypassCompression() throws {
        let processor = try makeProcessor(left: try .flat(60), bypass: [.compression, .noiseReduction])
        #expect(abs(measuredInsertionGain(processor, frequencyHz: 1000, inputSPL: 65)) < 0.3)
        #expect(abs(measuredInsertionGain(processor, frequencyHz: 3000, inputSPL: 65)) < 0.3)
    }

    @Test("in the conversation-in-noise program steady speech-shaped noise comes out quieter than with noise reduction bypassed")
    func noiseReductionInChain() throws {
        let noise = TestSignals.speechShapedNoise(rmsDBFS: -45, seconds: 2.5, sampleRate: 48_000)
        let on = try makeProcessor(left: try .flat(40), program: .conversationInNoise, bypass: [])
        let off = try makeProcessor(left: try .flat(40), program: .conversationInNoise, bypass: [.noiseReduction])
        let range = (noise.count - 24_000)..<noise.count
        let withReduction = SignalMeasurement.rms(on.processAll(noise), frames: range, channel: 0, channels: 2)
        let without = SignalMeasurement.rms(off.processAll(noise), frames: range, channel: 0, channels: 2)
        let reduction = 20 * log10(without / withReduction)
        #expect(reduction > 5 && reduction <= 12.5, "noise reduced by \(reduction) dB")
        // The monitors show a noise estimate near the band levels.
        let noiseLevel = on.monitors.value(.noiseLevelSPL, ear: .left, band: 3)
        let inputLevel = on.monitors.value(.inputLevelSPL, ear: .left, band: 3)
        #expect(abs(noiseLevel - inputLevel) < 6)
    }

    @Test("bad formats are refused with the reason")
    func badFormats() throws {
        #expect(throws: HearingError.sampleRateTooLow(22_050)) { try ProcessingFormat(sampleRate: 22_050) }
        #expect(throws: HearingError.unsupportedChannelCount(3)) { try ProcessingFormat(sampleRate: 48_000, inputChannels: 3) }
        #expect(throws: HearingError.unsupportedBlockSize(100)) { try ProcessingFormat(sampleRate: 48_000, blockSize: 100) }
        #expect(HearingError.sampleRateTooLow(22_050).userMessage == "The sample rate 22050 Hz is too low for the hearing assistant; it needs at least 44100 Hz.")
        #expect(throws: HearingError.unknownProgram("disco")) { try ListeningProgram(named: "disco") }
        #expect(try ListeningProgram(named: "restaurant") == .conversationInNoise)
    }
}

@Suite("Noise reduction in the chain spares speech")
struct NoiseReductionSpeechTests {
    @Test("tone bursts 15 dB above steady noise keep their level (±1.5 dB) while the noise between them is lowered")
    func burstsSurvive() throws {
        let rate = 48_000.0
        let noise = TestSignals.speechShapedNoise(rmsDBFS: -45, seconds: 3, sampleRate: rate)
        let calibration = LevelCalibration()
        let tone = TestSignals.tone(frequencyHz: 1000, amplitude: calibration.inputSineAmplitude(spl: 70), seconds: 3, sampleRate: rate)
        let period = Int(0.4 * rate)
        let input = (0..<noise.count).map { n in noise[n] + ((n % period) < period / 2 ? tone[n] : 0) }
        let on = try makeProcessor(left: try .flat(40), rule: .nalR, program: .conversationInNoise, bypass: [])
        let off = try makeProcessor(left: try .flat(40), rule: .nalR, program: .conversationInNoise, bypass: [.noiseReduction])
        let withReduction = on.processAll(input), without = off.processAll(input)
        let lastBurst = (6 * period + period / 8)..<(6 * period + 3 * period / 8)
        let lastGap = (6 * period + 5 * period / 8)..<(6 * period + 7 * period / 8)
        func toneLevel(_ y: [Float]) -> Double {
            20 * log10(SignalMeasurement.toneAmplitude(y, frequencyHz: 1000, sampleRate: rate, frames: lastBurst, channel: 0, channels: 2))
        }
        func gapLevel(_ y: [Float]) -> Double { 20 * log10(SignalMeasurement.rms(y, frames: lastGap, channel: 0, channels: 2)) }
        #expect(abs(toneLevel(withReduction) - toneLevel(without)) < 1.5, "speech changed by \(toneLevel(withReduction) - toneLevel(without)) dB")
        #expect(gapLevel(without) - gapLevel(withReduction) > 4, "noise lowered by \(gapLevel(without) - gapLevel(withReduction)) dB")
    }
}
