import ArgumentParser
import Foundation
import Hearing

/// Hidden: times the chain. Build in release (`swift build -c release --product assist`) for
/// meaningful numbers.
struct HearBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Times the hearing chain: algorithmic latency, real-time factor for 1/2/4 ear chains, worst block time.",
        shouldDisplay: false
    )

    @OptionGroup var fitting: FittingArguments

    @Option(help: "Seconds of audio per measurement.")
    var seconds: Double = 10

    @Option(help: "Frames per block.")
    var blockSize: Int = 64

    func run() async throws {
        try await reportingErrors {
            let settings = try fitting.settings()
            for rate in [44_100.0, 48_000.0] {
                let report = try ChainVerification.run(settings: settings, sampleRate: rate)
                print(String(format: "Algorithmic latency at %.0f Hz: %d samples = %.2f ms (impulse), plus %d-frame block buffering = %.2f ms",
                             rate, report.latencyFrames, report.latencyMilliseconds, blockSize, Double(blockSize) / rate * 1000))
            }
            for chains in [1, 2, 4] {
                let result = try ChainBenchmark.run(settings: settings, earChains: chains, blockSize: blockSize, seconds: seconds)
                print(String(format: "%d ear chain%@ at 48 kHz, %d-frame blocks: real-time factor %.4f of one core; block time 99.9th percentile %.1f µs, worst %.1f µs, of a %.0f µs period",
                             chains, chains == 1 ? "" : "s", blockSize, result.realTimeFactor, result.percentile999BlockSeconds * 1e6,
                             result.worstBlockSeconds * 1e6, result.blockPeriodSeconds * 1e6))
            }
        }
    }
}
