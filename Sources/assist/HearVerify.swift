import ArgumentParser
import AssistCore
import Foundation
import Hearing

struct HearVerify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Measures the fitted chain: insertion gain per band vs target at 50/65/80 dB SPL, maximum output, latency, distortion.",
        discussion: DocsPage.hearing.reference
    )

    @OptionGroup var fitting: FittingArguments

    @Option(help: "Sample rate to verify at (44100 or more).")
    var sampleRate: Double = 48_000

    @Option(help: "Draw gain curves over the targets and the audiogram into this SVG file.")
    var plot: String?

    func run() async throws {
        let settings = try fitting.settings()
        _ = try ProcessingFormat(sampleRate: sampleRate)
        let report = try ChainVerification.run(settings: settings, sampleRate: sampleRate)
        print(report.table(settings: settings, sampleRate: sampleRate))
        if let plot {
            let svg = GainPlot.svg(report: report, prescription: settings.prescription)
            do { try svg.write(toFile: plot, atomically: true, encoding: .utf8) } catch {
                throw OutputFileError(path: plot)
            }
            print("Plot written to \(plot).")
        }
    }
}
