import Foundation
import Testing
@testable import Hearing

/// Damaged or hostile input must never make the output loud: property tests over the whole
/// chain with NaN, ±∞, huge, denormal, DC and full-scale square-wave input.
@Suite("Damaged input never makes the hearing output loud")
struct SafetyTests {
    /// A high-gain fitting (flat 80 dB HL) so that any leak past the ceiling would show.
    static func highGainProcessor(bypass: ProcessingBypass = [], inputChannels: Int = 1,
                                  program: ListeningProgram = .quiet) throws -> HearingAidProcessor {
        try makeProcessor(left: try .flat(80), rule: .nalR, program: program, bypass: bypass,
                          inputChannels: inputChannels, maximumOutputSPL: 100)
    }

    static func ceiling(_ processor: HearingAidProcessor) -> Float {
        processor.currentConfigurationForTesting?.limiterPeakAmplitude
            ?? Float(amplitude(decibels: processor.control.settings.calibration.outputDBFS(fromSPL: 100)))
    }

    /// Every sample finite and within the fitted ceiling (−10 dBFS for 100 dB SPL at 110 dB full scale).
    static func expectWithinCeiling(_ output: [Float], _ ceiling: Float, _ what: String) {
        let bad = output.firstIndex { !$0.isFinite || abs($0) > ceiling }
        #expect(bad == nil, "\(what): sample \(bad ?? 0) is \(bad.map { output[$0] } ?? 0), ceiling \(ceiling)")
    }

    static func sine(_ amplitude: Float = 0.1, frames: Int = 24_000, hz: Float = 1000) -> [Float] {
        (0..<frames).map { amplitude * sinf(2 * .pi * hz * Float($0) / 48_000) }
    }

    /// Hostile signals, each 0.25 s at 48 kHz.
    static func hostileSignals() -> [(String, [Float])] {
        let n = 12_000
        var generator = SplitMix(seed: 17)
        func square(_ hz: Int, _ level: Float = 1) -> [Float] { (0..<n).map { ($0 * hz / 24_000) % 2 == 0 ? level : -level } }
        var spikes = sine(frames: n)
        for i in stride(from: 500, to: n, by: 997) { spikes[i] = [Float.nan, .infinity, -.infinity, 3e38, -3e38][(i / 997) % 5] }
        return [
            ("one 3e38 sample in a 0.1 sine", { var s = sine(frames: n); s[6000] = 3e38; return s }()),
            ("the 0.1 sine scaled to 1e20", sine(frames: n).map { $0 * 1e20 }),
            ("NaN, ±∞ and ±3e38 spikes", spikes),
            ("all NaN", [Float](repeating: .nan, count: n)),
            ("all +∞", [Float](repeating: .infinity, count: n)),
            ("denormals", (0..<n).map { i in Float(bitPattern: UInt32(1 + i % 5000)) * (i % 2 == 0 ? 1 : -1) }),
            ("DC at full scale", [Float](repeating: 1, count: n)),
            ("DC at +12 dBFS, the largest admitted", [Float](repeating: InputGuard.absurdAmplitude, count: n)),
            ("full-scale 100 Hz square", square(100)),
            ("full-scale 1 kHz square", square(1000)),
            ("+12 dBFS 3 kHz square", square(3000, InputGuard.absurdAmplitude)),
            ("random bit patterns", (0..<n).map { _ in Float(bitPattern: UInt32(truncatingIfNeeded: generator.next())) }),
            ("white noise at +12 dBFS", (0..<n).map { _ in Float(Double(generator.next() % 2_000_001) / 1_000_000 - 1) * 4 }),
        ]
    }

    @Test("every hostile signal leaves the chain finite and within the fitted ceiling, mono and stereo, limiter on or bypassed",
          arguments: [ProcessingBypass(), [.limiter], [.limiter, .compression, .noiseReduction]])
    func ceilingHoldsForEveryInput(bypass: ProcessingBypass) throws {
        for (name, signal) in Self.hostileSignals() {
            let mono = try Self.highGainProcessor(bypass: bypass)
            Self.expectWithinCeiling(mono.processAll(signal), Self.ceiling(mono), "\(name), mono")
            let stereo = try Self.highGainProcessor(bypass: bypass, inputChannels: 2, program: .music)
            let interleaved = signal.enumerated().flatMap { i, x in [x, signal[(i + 333) % signal.count]] }
            Self.expectWithinCeiling(stereo.processAll(interleaved), Self.ceiling(stereo), "\(name), stereo")
        }
    }

    @Test("the ceiling is the fitted −10 dBFS here, and the 3e38 spike file stays at or below it instead of full scale")
    func spikeReproducer() throws {
        let processor = try Self.highGainProcessor()
        let ceiling = Self.ceiling(processor)
        #expect(abs(20 * log10(ceiling) - -10) < 0.1)
        var signal = Self.sine()
        signal[12_000] = 3e38
        let output = processor.processAll(signal)
        Self.expectWithinCeiling(output, ceiling, "spike")
        // Not stuck: the last 0.1 s is sound, not silence or a rail.
        let tail = SignalMeasurement.rms(output, frames: 19_200..<24_000, channel: 0, channels: 2)
        #expect(tail > 0.01 && tail < Double(ceiling))
        #expect(processor.monitors.damagedInputSamples == 1)
    }

    @Test("a bad sample or a whole bad block is heard as silence and nothing else: the output is exactly that of the signal with silence there",
          arguments: [Float.nan, .infinity, -.infinity, 3e38, 1e20, -5])
    func recoversAtOnce(bad: Float) throws {
        let clean = Self.sine()
        for badRange in [12_000..<12_001, 12_032..<12_096] {
            var damaged = clean, silenced = clean
            for i in badRange { damaged[i] = bad; silenced[i] = 0 }
            let heard = try Self.highGainProcessor().processAll(damaged)
            let expected = try Self.highGainProcessor().processAll(silenced)
            // Identical from the first sample: no state (levels, noise estimate, limiter gain) remembers the damage.
            #expect(heard == expected, "\(bad) over \(badRange)")
        }
    }

    @Test("the limiter turns NaN and ±∞ into silence, keeps huge samples at the cap, and the next hop is as if nothing happened")
    func limiterIsTheLastWord() {
        let cap: Float = 0.3
        var hostile: [Float] = (0..<64).map { i in [Float.nan, .infinity, -.infinity, 3e38, -3e38, 1e-42, 0.2, 5][i % 8] }
        let next: [Float] = (0..<64).map { 0.2 * sinf(Float($0) / 5) }
        for bypassed in [false, true] {
            let limiter = OutputLimiter(); limiter.prepare(hopSize: 64, sampleRate: 48_000)
            hostile.withUnsafeMutableBufferPointer { limiter.process($0.baseAddress!, count: 64, peakCap: cap, bypassed: bypassed) }
            #expect(hostile.allSatisfy { $0.isFinite && abs($0) <= cap })
            #expect(hostile[0] == 0 && hostile[1] == 0 && hostile[2] == 0)
            // With a NaN cap (a broken configuration) the output is silence, not unbounded.
            var again: [Float] = [0.5, -0.5, .nan]
            again.withUnsafeMutableBufferPointer { limiter.process($0.baseAddress!, count: 3, peakCap: .nan, bypassed: bypassed) }
            #expect(again == [0, 0, 0])
        }
        // NaN and ∞ set no gain: a fresh limiter and one that just saw them treat the next hop alike.
        let fresh = OutputLimiter(); fresh.prepare(hopSize: 64, sampleRate: 48_000)
        let seen = OutputLimiter(); seen.prepare(hopSize: 64, sampleRate: 48_000)
        var nonFinite: [Float] = (0..<64).map { [Float.nan, .infinity, -.infinity][$0 % 3] }
        nonFinite.withUnsafeMutableBufferPointer { seen.process($0.baseAddress!, count: 64, peakCap: cap, bypassed: false) }
        var a = next, b = next
        a.withUnsafeMutableBufferPointer { fresh.process($0.baseAddress!, count: 64, peakCap: cap, bypassed: false) }
        b.withUnsafeMutableBufferPointer { seen.process($0.baseAddress!, count: 64, peakCap: cap, bypassed: false) }
        #expect(a == b)
    }

    @Test("the input guard admits sound up to +12 dBFS, flushes denormals, and calls everything else damaged")
    func inputGuard() {
        #expect(InputGuard.admit(0.5) == (0.5, false))
        #expect(InputGuard.admit(-4) == (-4, false))
        #expect(InputGuard.admit(1e-40) == (0, false))
        for bad: Float in [.nan, .infinity, -.infinity, 3e38, 4.01, -1e20, .signalingNaN] {
            #expect(InputGuard.admit(bad) == (0, true), "\(bad)")
        }
    }
}

/// A small deterministic generator (SplitMix64) for reproducible random signals.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
