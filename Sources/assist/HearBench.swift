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
        try HearingBenchmarkReport.lines(settings: settings, blockSize: blockSize, seconds: seconds, feedback: feedback).forEach { print($0) }
    }
}
