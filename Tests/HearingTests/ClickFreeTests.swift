import Foundation
import Testing
@testable import Hearing

@Suite("Settings change while running without clicks")
struct ClickFreeTests {
    /// Largest sample-to-sample step of the left output in `frames`, relative to the tone's
    /// own largest step. A click is a step far larger than the signal ever makes by itself.
    func largestStep(_ output: [Float], frames: Range<Int>) -> Float {
        var worst: Float = 0
        for n in frames.dropFirst() { worst = max(worst, abs(output[2 * n] - output[2 * (n - 1)])) }
        return worst
    }

    @Test("volume, program, bypass and mute changes keep every sample step within the tone's own slope")
    func changesAreSmooth() throws {
        let processor = try makeProcessor(left: try .flat(50), rule: .nalR)
        let tone = TestSignals.tone(frequencyHz: 500, amplitude: 0.03, seconds: 0.6, sampleRate: 48_000)
        let changes: [Int: (HearingAidControl) throws -> Void] = [
            100: { try $0.volumeUp(); try $0.volumeUp(); try $0.volumeUp() },
            150: { try $0.select(.conversationInNoise) },
            200: { try $0.setBypass([.compression, .noiseReduction]) },
            250: { try $0.setBypass([.noiseReduction]) },
            300: { try $0.setMuted(true) },
            350: { try $0.setMuted(false) },
        ]
        let output = processor.processAll(tone) { block in try? changes[block + 1]?(processor.control) }
        // The steady output's largest step, after volume +6 dB (the loudest part of the run).
        let steady = largestStep(output, frames: (140 * 64)..<(150 * 64))
        let whole = largestStep(output, frames: (90 * 64)..<(tone.count))
        #expect(whole <= steady * 1.05, "largest step \(whole) against a steady \(steady)")
    }
}

@Suite("Benchmark harness")
struct BenchmarkHarnessTests {
    @Test("the benchmark times 1, 2 and 4 ear chains and reports a positive real-time factor, on the wall clock and in CPU time")
    func runs() throws {
        let settings = HearingAidSettings(prescription: try Prescription(audiogram: Audiogram(left: try .flat(40), right: try .flat(40))))
        for chains in [1, 2, 4] {
            let result = try ChainBenchmark.run(settings: settings, earChains: chains, seconds: 0.1)
            #expect(result.realTimeFactor > 0 && result.worstBlockSeconds >= result.percentile999BlockSeconds)
            #expect(result.cpuRealTimeFactor > 0)
            #expect(abs(result.audioSeconds - 0.1) < 0.01)
        }
    }

    @Test("the printed report: the latency at both rates, then one line per chain count, feedback only when asked")
    func report() throws {
        let settings = HearingAidSettings(prescription: try Prescription(audiogram: Audiogram(left: try .flat(40), right: try .flat(40))))
        let lines = try HearingBenchmarkReport.lines(settings: settings, blockSize: 64, seconds: 0.05, feedback: false)
        #expect(lines.count == 5, "\(lines)")
        #expect(lines[0].hasPrefix("Algorithmic latency at 44100 Hz") && lines[1].hasPrefix("Algorithmic latency at 48000 Hz"))
        #expect(lines[2].hasPrefix("1 ear chain at 48 kHz, 64-frame blocks") && lines[4].hasPrefix("4 ear chains"))
        #expect(!lines.contains { $0.hasPrefix("Feedback") })
    }
}

@Suite("Monitors")
struct MonitorTests {
    @Test("the monitors show the band level, the applied gain and a JSON time series while running")
    func monitorsWhileRunning() throws {
        let processor = try makeProcessor(left: try .flat(40), rule: .nalR)
        let recorder = MonitorRecorder(monitors: processor.monitors, intervalSeconds: 0.01)
        recorder.start()
        let gain = measuredInsertionGain(processor, frequencyHz: 1000, inputSPL: 65)
        // No wait: a series has its first snapshot from the start and its last from the stop.
        let series = recorder.stop()
        #expect(series.snapshots.count >= 2)
        let last = try #require(series.snapshots.last)
        #expect(abs(last.left.inputLevelSPL[3] - 65) < 1, "1 kHz band level \(last.left.inputLevelSPL[3])")
        #expect(abs(Double(last.left.appliedGainDecibels[3]) - gain) < 0.5)
        let json = try JSONEncoder().encode(series)
        let decoded = try JSONDecoder().decode(MonitorTimeSeries.self, from: json)
        #expect(decoded.bandFrequenciesHz == HearingMonitors.bandFrequenciesHz)
    }
}

@Suite("Configuration hand-over")
struct ConfigurationHandOverTests {
    @Test("a configuration the audio thread replaces is freed by the control thread, never by process()")
    func replacedConfigurationIsFreedByControl() throws {
        let processor = try makeProcessor(left: try .flat(40))
        let silence = [Float](repeating: 0, count: 64)
        _ = processor.processAll(silence)
        weak let replaced = processor.currentConfigurationForTesting
        // More changes than the control keeps in its own history, while no block is processed.
        for step in 0..<10 { try processor.control.update { $0.volumeSteps = step % 3 } }
        _ = processor.processAll(silence) // takes the newest, hands the replaced one back
        #expect(replaced != nil, "freed during process()")
        try processor.control.update { $0.muted = false }
        #expect(replaced == nil, "not freed by the control thread")
    }

    @Test("the mailbox's retired slot holds one configuration until the control thread collects it")
    func retiredSlot() throws {
        let mailbox = ConfigurationMailbox()
        let settings = HearingAidSettings(prescription: try Prescription(audiogram: Audiogram(left: try .flat(40), right: try .flat(40))))
        let a = try RuntimeConfiguration(settings: settings, prescriptionGeneration: 0)
        let b = try RuntimeConfiguration(settings: settings, prescriptionGeneration: 1)
        mailbox.post(a)
        #expect(mailbox.take() === a && mailbox.take() == nil)
        #expect(mailbox.retire(a))
        #expect(!mailbox.retire(b))
        mailbox.collectRetired()
        #expect(mailbox.retire(b))
    }
}
