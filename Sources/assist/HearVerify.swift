import ArgumentParser
import Foundation
import Hearing

struct HearVerify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Measures the fitted chain: insertion gain per band vs target at 50/65/80 dB SPL, maximum output, latency, distortion."
    )

    @OptionGroup var fitting: FittingArguments

    @Option(help: "Sample rate to verify at (44100 or more).")
    var sampleRate: Double = 48_000

    @Option(help: "Draw gain curves over the targets and the audiogram into this SVG file.")
    var plot: String?

    func run() async throws {
        try await reportingErrors {
            let settings = try fitting.settings()
            _ = try ProcessingFormat(sampleRate: sampleRate)
            let report = try ChainVerification.run(settings: settings, sampleRate: sampleRate)
            print("Verification at \(Int(sampleRate)) Hz, \(settings.prescription.options.rule.rawValue) prescription, "
                  + "\(settings.program.rawValue) program (noise reduction off, as in a test box).")
            for ear in Ear.allCases {
                print("\n\(ear.name.capitalized) ear: insertion gain from tones, measured / target (error) in dB")
                print("  band Hz " + ChainVerification.levelsSPL.map { pad("\(Int($0)) dB SPL", 24) }.joined())
                for f in HearingMonitors.bandFrequenciesHz {
                    var line = "  " + pad("\(Int(f))", 7) + " "
                    for level in ChainVerification.levelsSPL {
                        let row = report.toneGains.first { $0.ear == ear && $0.frequencyHz == f && $0.inputSPL == level }!
                        line += pad(String(format: "%5.1f / %5.1f (%+.1f)", row.measuredDecibels, row.targetDecibels, row.errorDecibels), 24)
                    }
                    print(line)
                }
                print("  speech-shaped noise (ANSI S3.5 spectrum) at 65 dB SPL overall, per band: measured / target read at the")
                print("  band's measured level (compressive fittings give fluctuating sounds up to ~2 dB less than a steady tone)")
                for row in report.noiseGains where row.ear == ear {
                    print("  " + pad("\(Int(row.frequencyHz))", 7) + String(format: " %5.1f / %5.1f dB (band input %.1f dB SPL)",
                                                                               row.measuredDecibels, row.targetDecibels, row.bandInputSPL))
                }
            }
            print("\nMaximum output (100 dB SPL sweep 200 Hz–8 kHz):")
            for row in report.maximumOutput {
                print("  \(row.ear.name): peak \(String(format: "%.1f", row.measuredPeakSPL)) dB SPL (sine-equivalent), "
                      + "limit \(String(format: "%.0f", row.limitSPL)) dB SPL, largest sample \(String(format: "%.3f", row.largestSample)) of full scale")
            }
            print(String(format: "Algorithmic latency (impulse): %d samples = %.2f ms", report.latencyFrames, report.latencyMilliseconds))
            for level in report.distortionPercent.keys.sorted() {
                print(String(format: "Harmonic distortion, 1 kHz at %.0f dB SPL: %.3f %%", level, report.distortionPercent[level]!))
            }
            let within = report.toneGains.filter { $0.inputSPL == 65 && (250...6000).contains($0.frequencyHz) }
            let worst = within.map { abs($0.errorDecibels) }.max() ?? 0
            print(String(format: "Largest error at 65 dB SPL, 250 Hz–6 kHz: %.2f dB (acceptance ±2 dB)", worst))
            if let plot {
                let svg = GainPlot.svg(report: report, prescription: settings.prescription)
                do { try svg.write(toFile: plot, atomically: true, encoding: .utf8) } catch {
                    throw OutputFileError(path: plot)
                }
                print("Plot written to \(plot).")
            }
        }
    }

    private func pad(_ s: String, _ width: Int) -> String { s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count) }
}
