import Foundation

extension VerificationReport {
    /// The report as `assist hear verify` prints it: insertion gain per band against target at
    /// each level, speech-shaped noise, maximum output, latency, distortion and the largest error.
    public func table(settings: HearingAidSettings, sampleRate: Double) -> String {
        let report = self
        var lines: [String] = []
        lines.append("Verification at \(Int(sampleRate)) Hz, \(settings.prescription.options.rule.rawValue) prescription, "
              + "\(settings.program.rawValue) program (noise reduction off, as in a test box).")
        for ear in Ear.allCases {
            lines.append("\n\(ear.name.capitalized) ear: insertion gain from tones, measured / target (error) in dB")
            lines.append("  band Hz " + ChainVerification.levelsSPL.map { pad("\(Int($0)) dB SPL", 24) }.joined())
            for f in HearingMonitors.bandFrequenciesHz {
                var line = "  " + pad("\(Int(f))", 7) + " "
                for level in ChainVerification.levelsSPL {
                    let row = report.toneGains.first { $0.ear == ear && $0.frequencyHz == f && $0.inputSPL == level }!
                    line += pad(String(format: "%5.1f / %5.1f (%+.1f)", row.measuredDecibels, row.targetDecibels, row.errorDecibels), 24)
                }
                lines.append(line)
            }
            lines.append("  speech-shaped noise (ANSI S3.5 spectrum) at 65 dB SPL overall, per band: measured / target read at the")
            lines.append("  band's measured level (compressive fittings give fluctuating sounds up to ~2 dB less than a steady tone)")
            for row in report.noiseGains where row.ear == ear {
                lines.append("  " + pad("\(Int(row.frequencyHz))", 7) + String(format: " %5.1f / %5.1f dB (band input %.1f dB SPL)",
                                                                           row.measuredDecibels, row.targetDecibels, row.bandInputSPL))
            }
        }
        lines.append("\nMaximum output (100 dB SPL sweep 200 Hz–8 kHz):")
        for row in report.maximumOutput {
            lines.append("  \(row.ear.name): peak \(String(format: "%.1f", row.measuredPeakSPL)) dB SPL (sine-equivalent), "
                  + "limit \(String(format: "%.0f", row.limitSPL)) dB SPL, largest sample \(String(format: "%.3f", row.largestSample)) of full scale")
        }
        lines.append(String(format: "Algorithmic latency (impulse): %d samples = %.2f ms", report.latencyFrames, report.latencyMilliseconds))
        for level in report.distortionPercent.keys.sorted() {
            lines.append(String(format: "Harmonic distortion, 1 kHz at %.0f dB SPL: %.3f %%", level, report.distortionPercent[level]!))
        }
        let within = report.toneGains.filter { $0.inputSPL == 65 && (250...6000).contains($0.frequencyHz) }
        let worst = within.map { abs($0.errorDecibels) }.max() ?? 0
        lines.append(String(format: "Largest error at 65 dB SPL, 250 Hz–6 kHz: %.2f dB (acceptance ±2 dB)", worst))
        return lines.joined(separator: "\n")
    }

    private func pad(_ s: String, _ width: Int) -> String { s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count) }
}
