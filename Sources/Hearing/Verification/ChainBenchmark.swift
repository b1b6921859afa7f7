import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Timing of the chain: real-time factor (processing time / audio time, per core) and the
/// slowest single block, for 1, 2 and 4 ear chains at a given rate. Meaningful only in a
/// release build; `assist hear bench` prints it.
///
/// Processing time is measured twice: on the wall clock (what a block really took, preemption
/// by other processes included: what the audio deadline sees) and as the CPU time of the
/// processing thread (`ThreadCPUTime`: what the chain itself costs, which a busy machine does
/// not inflate).
public struct BenchmarkResult: Sendable {
    public let earChains: Int
    public let sampleRate: Double
    public let blockSize: Int
    public let audioSeconds: Double
    /// Wall-clock time spent processing.
    public let processingSeconds: Double
    /// CPU time the processing thread used for the same blocks.
    public let processingCPUSeconds: Double
    public let worstBlockSeconds: Double
    /// 99.9th percentile of the block times: the worst block without the rare preemption by
    /// other processes on a shared machine.
    public let percentile999BlockSeconds: Double
    public var realTimeFactor: Double { processingSeconds / audioSeconds }
    /// The real-time factor in CPU time: the chain's own cost, independent of the machine's load.
    public var cpuRealTimeFactor: Double { processingCPUSeconds / audioSeconds }
    public var blockPeriodSeconds: Double { Double(blockSize) / sampleRate }
}

public enum ChainBenchmark {
    /// Processes `seconds` of speech-shaped noise (with a level change every half second, so the
    /// compressor and limiter work) through `earChains` ear chains: 1 is a single ear, 2 one
    /// binaural aid on stereo input, 4 two binaural aids.
    public static func run(settings: HearingAidSettings, earChains: Int, sampleRate: Double = 48_000, blockSize: Int = 64,
                           seconds: Double = 10) throws -> BenchmarkResult {
        var benchSettings = settings
        benchSettings.startupRampSeconds = 0
        let noise = TestSignals.speechShapedNoise(rmsDBFS: -45, seconds: seconds, sampleRate: sampleRate, seed: 11)
        let halfSecond = Int(sampleRate / 2)
        let varied = noise.enumerated().map { i, x in (i / halfSecond) % 2 == 0 ? x : x * 30 }
        let stereo = varied.flatMap { x -> [Float] in [x, x] }
        let blocks = varied.count / blockSize
        var output = [Float](repeating: 0, count: blockSize * 2)
        var blockTimes = [Duration](repeating: .zero, count: blocks)
        let clock = ContinuousClock()
        let format = try ProcessingFormat(sampleRate: sampleRate, blockSize: blockSize, inputChannels: earChains == 1 ? 1 : 2)
        var total: Duration = .zero
        // The thread's CPU clock is read around the whole loop (reading it is a system call,
        // too slow to do per block without changing what the wall clock measures).
        let cpuStart = ThreadCPUTime.seconds()

        if earChains == 1 {
            let control = try HearingAidControl(settings: benchSettings)
            let configuration = control.mailbox.take()!
            let ear = EarProcessor(ear: .left)
            ear.prepare(format, calibration: benchSettings.calibration)
            varied.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { out in
                    for j in 0..<blocks {
                        let start = clock.now
                        ear.process(input.baseAddress! + j * blockSize, inputStride: 1, out.baseAddress!, outputStride: 1,
                                    frames: blockSize, configuration: configuration, monitors: control.monitors)
                        let elapsed = clock.now - start
                        total += elapsed
                        blockTimes[j] = elapsed
                    }
                }
            }
        } else {
            let processors = try (0..<(earChains / 2)).map { _ in
                let p = HearingAidProcessor(control: try HearingAidControl(settings: benchSettings))
                try p.prepare(format)
                return p
            }
            stereo.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { out in
                    for j in 0..<blocks {
                        let start = clock.now
                        for p in processors {
                            p.process(input: input.baseAddress! + j * blockSize * 2, output: out.baseAddress!, frames: blockSize)
                        }
                        let elapsed = clock.now - start
                        total += elapsed
                        blockTimes[j] = elapsed
                    }
                }
            }
        }
        let cpuSeconds = ThreadCPUTime.seconds() - cpuStart
        let sorted = blockTimes.sorted()
        func inSeconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18 }
        return BenchmarkResult(earChains: earChains, sampleRate: sampleRate, blockSize: blockSize,
                               audioSeconds: Double(blocks * blockSize) / sampleRate, processingSeconds: inSeconds(total),
                               processingCPUSeconds: cpuSeconds,
                               worstBlockSeconds: inSeconds(sorted.last ?? .zero),
                               percentile999BlockSeconds: inSeconds(sorted.isEmpty ? .zero : sorted[min(sorted.count - 1, sorted.count * 999 / 1000)]))
    }
}

/// CPU time used by the calling thread (`CLOCK_THREAD_CPUTIME_ID`): user and system time of
/// this thread only, so neither other processes nor this process's other threads count.
public enum ThreadCPUTime {
    public static func seconds() -> Double {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}

/// What `assist hear bench` prints: the chain's algorithmic latency at 44.1 and 48 kHz, its speed
/// with 1, 2 and 4 ear chains, and, when asked, feedback management's added stable gain.
public enum HearingBenchmarkReport {
    public static func lines(settings: HearingAidSettings, blockSize: Int, seconds: Double, feedback: Bool) throws -> [String] {
        var lines: [String] = []
        for rate in [44_100.0, 48_000.0] {
            let report = try ChainVerification.run(settings: settings, sampleRate: rate)
            lines.append(String(format: "Algorithmic latency at %.0f Hz: %d samples = %.2f ms (impulse), plus %d-frame block buffering = %.2f ms",
                                rate, report.latencyFrames, report.latencyMilliseconds, blockSize, Double(blockSize) / rate * 1000))
        }
        for chains in [1, 2, 4] {
            let result = try ChainBenchmark.run(settings: settings, earChains: chains, blockSize: blockSize, seconds: seconds)
            lines.append(String(format: "%d ear chain%@ at 48 kHz, %d-frame blocks: real-time factor %.4f of one core (wall clock), %.4f (thread CPU time); block time 99.9th percentile %.1f µs, worst %.1f µs, of a %.0f µs period",
                                chains, chains == 1 ? "" : "s", blockSize, result.realTimeFactor, result.cpuRealTimeFactor,
                                result.percentile999BlockSeconds * 1e6, result.worstBlockSeconds * 1e6, result.blockPeriodSeconds * 1e6))
        }
        if feedback {
            for row in try FeedbackBenchmark.run(settings: settings) {
                lines.append(String(format: "Feedback management %@: strongest stable earbud path %.0f dB; 2 dB below it, changing: %+.1f dB over open loop",
                                    row.settingName, row.maximumStablePathGainDecibels, row.changingPathExcessDecibels))
            }
        }
        return lines
    }
}
