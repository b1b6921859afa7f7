import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import Hearing

@Suite("assist hear verify's measurements and plot")
struct VerificationTests {
    @Test("verification of a FIG6 fitting: gains at 65 dB SPL within ±2 dB, output at the limit, 4 ms latency, low distortion; the SVG parses")
    func verifyAndPlot() throws {
        let audiogram = Audiogram(left: try TestAudiograms.slopingHighFrequency(), right: try TestAudiograms.reverseSlope())
        let settings = HearingAidSettings(prescription: try Prescription(audiogram: audiogram, options: FittingOptions(rule: .fig6)))
        let report = try ChainVerification.run(settings: settings)
        for row in report.toneGains where row.inputSPL == 65 && (250...6000).contains(row.frequencyHz) {
            #expect(abs(row.errorDecibels) <= 2, "\(row.ear.name) \(row.frequencyHz) Hz: \(row.measuredDecibels) vs \(row.targetDecibels)")
        }
        for row in report.maximumOutput {
            #expect(row.measuredPeakSPL <= row.limitSPL + 0.01 && row.largestSample < 1)
        }
        #expect(report.latencyFrames == 192)
        #expect(report.distortionPercent.values.allSatisfy { $0 < 1 })
        #expect(report.noiseGains.count == 2 * BandLayout.bandCount)

        let svg = GainPlot.svg(report: report, prescription: settings.prescription)
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "the SVG is not well-formed XML")
        // Per ear: three dashed target curves, three measured curves, one audiogram line.
        #expect(svg.components(separatedBy: "stroke-dasharray").count - 1 == 6)
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 14)
    }
}
