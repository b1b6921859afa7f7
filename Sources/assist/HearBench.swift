import ArgumentParser
import AssistCore
import Foundation
import Hearing

/// Hidden: times the chain. Build in release (`swift build -c release --product assist`) for
/// meaningful numbers.
struct HearBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Times the hearing chain: algorithmic latency, real-time factor for 1/2/4 ear chains, worst block time.",
        discussion: DocsPage.hearing.reference,
        shouldDisplay: false
    )

    @OptionGroup var fitting: FittingArguments

    @Option(help: "Seconds of audio per measurement.")
    var seconds: Double = 10

    @Option(help: "Frames per block.")
    var blockSize: Int = 64

    @Option(help: "Write the same fitting as an openMHA configuration (for bench/openmha/compare.py) to this file prefix (.cfg and .targets.json), reading IN.wav, writing OUT.wav, and stop.")
    var openmhaConfiguration: String?

    @Flag(help: "Also measure feedback management's added stable gain on the simulated earbud path.")
    var feedback = false

    func run() async throws {
        let settings = try fitting.settings()
        if let prefix = openmhaConfiguration {
            let files = [(prefix + ".cfg", OpenMHAConfiguration.text(settings: settings, input: "IN.wav", output: "OUT.wav")),
                         (prefix + ".targets.json", OpenMHAConfiguration.targetsJSON(settings: settings))]
            for (path, text) in files {
                do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch { throw OutputFileError(path: path) }
            }
            return
        }
        for rate in [44_100.0, 48_000.0] {
            let report = try ChainVerification.run(settings: settings, sampleRate: rate)
            print(String(format: "Algorithmic latency at %.0f Hz: %d samples = %.2f ms (impulse), plus %d-frame block buffering = %.2f ms",
                         rate, report.latencyFrames, report.latencyMilliseconds, blockSize, Double(blockSize) / rate * 1000))
        }
        for chains in [1, 2, 4] {
            let result = try ChainBenchmark.run(settings: settings, earChains: chains, blockSize: blockSize, seconds: seconds)
            print(String(format: "%d ear chain%@ at 48 kHz, %d-frame blocks: real-time factor %.4f of one core (wall clock), %.4f (thread CPU time); block time 99.9th percentile %.1f µs, worst %.1f µs, of a %.0f µs period",
                         chains, chains == 1 ? "" : "s", blockSize, result.realTimeFactor, result.cpuRealTimeFactor, result.percentile999BlockSeconds * 1e6,
                         result.worstBlockSeconds * 1e6, result.blockPeriodSeconds * 1e6))
        }
        if feedback {
            for row in try FeedbackBenchmark.run(settings: settings) {
                print(String(format: "Feedback management %@: strongest stable earbud path %.0f dB; 2 dB below it, changing: %+.1f dB over open loop",
                             row.settingName, row.maximumStablePathGainDecibels, row.changingPathExcessDecibels))
            }
        }
    }
}
