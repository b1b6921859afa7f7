import Foundation

/// Timing of the chain: real-time factor (processing time / audio time, per core) and the
/// slowest single block, for 1, 2 and 4 ear chains at a given rate. Meaningful only in a
/// release build; `assist hear bench` prints it.
public struct BenchmarkResult: Sendable {
    public let earChains: Int
    public let sampleRate: Double
    public let blockSize: Int
    public let audioSeconds: Double
    public let processingSeconds: Double
    public let worstBlockSeconds: Double
    /// 99.9th percentile of the block times: the worst block without the rare preemption by
    /// other processes on a shared machine.
    public let percentile999BlockSeconds: Double
    public var realTimeFactor: Double { processingSeconds / audioSeconds }
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
        let sorted = blockTimes.sorted()
        func inSeconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18 }
        return BenchmarkResult(earChains: earChains, sampleRate: sampleRate, blockSize: blockSize,
                               audioSeconds: Double(blocks * blockSize) / sampleRate, processingSeconds: inSeconds(total),
                               worstBlockSeconds: inSeconds(sorted.last ?? .zero),
                               percentile999BlockSeconds: inSeconds(sorted.isEmpty ? .zero : sorted[min(sorted.count - 1, sorted.count * 999 / 1000)]))
    }
}
