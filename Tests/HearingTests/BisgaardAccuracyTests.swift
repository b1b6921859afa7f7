import Foundation
import Testing
@testable import Hearing

/// Insertion-gain accuracy over the ten standard audiograms of IEC 60118-15 (Bisgaard, Vlaming
/// & Dahlquist 2010, Trends in Amplification 14(2), table of N1–N7 and S1–S3; their 375 Hz
/// value is left out: it is not an audiometric frequency here, and 8 kHz, which they do not
/// give, is taken as the 6 kHz value).
@Suite("Insertion gain over the Bisgaard standard audiograms")
struct BisgaardAccuracyTests {
    static let frequencies: [Double] = [250, 500, 750, 1000, 1500, 2000, 3000, 4000, 6000]
    static let audiograms: [(String, [Double])] = [
        ("N1", [10, 10, 10, 10, 10, 15, 20, 30, 40]),
        ("N2", [20, 20, 22.5, 25, 30, 35, 40, 45, 50]),
        ("N3", [35, 35, 35, 40, 45, 50, 55, 60, 65]),
        ("N4", [55, 55, 55, 55, 60, 65, 70, 75, 80]),
        ("N5", [65, 70, 72.5, 75, 80, 80, 80, 80, 80]),
        ("N6", [75, 80, 82.5, 85, 90, 90, 95, 100, 100]),
        ("N7", [90, 95, 100, 105, 105, 105, 105, 105, 105]),
        ("S1", [10, 10, 10, 10, 10, 15, 30, 55, 70]),
        ("S2", [20, 20, 22.5, 25, 35, 55, 75, 95, 95]),
        ("S3", [30, 35, 47.5, 60, 70, 75, 80, 80, 85]),
    ]

    /// The issue's ±1 dB for both rules. FIG6 is compressive, so it also needs the 250–1000 Hz
    /// bands' *level* read right (`FineBandLevels`): read from the filterbank's own 187.5 Hz bins it
    /// reached 1.07 dB at 250 Hz (N5), and 2.1 dB with no correction at all.
    @Test("250 Hz–6 kHz, 50/65/80 dB SPL tones: every band within 1 dB of the target where the maximum output does not limit (table printed)",
          arguments: [(FittingRule.nalR, 48_000.0), (.fig6, 48_000), (.nalR, 44_100), (.fig6, 44_100)])
    func bisgaardTable(rule: FittingRule, sampleRate: Double) throws {
        let bound = 1.0
        var table = ["| audiogram | " + Self.frequencies.map { "\(Int($0)) Hz" }.joined(separator: " | ") + " |",
                     "|---|" + String(repeating: "---|", count: Self.frequencies.count)]
        var worstOverall = 0.0
        for (name, thresholds) in Self.audiograms {
            var table8k = Dictionary(uniqueKeysWithValues: zip(Self.frequencies, thresholds))
            table8k[8000] = thresholds.last
            let ear = try EarAudiogram(ear: .left, thresholdsHL: table8k)
            let processor = try makeProcessor(left: ear, rule: rule, sampleRate: sampleRate, maximumOutputSPL: 111)
            let prescription = processor.control.settings.prescription.left
            var row: [String] = []
            for f in Self.frequencies {
                var worst: Double?
                for level in [50.0, 65, 80] {
                    let band = prescription.band(atHz: f)!
                    let target = band.insertionGain(bandLevelSPL: level)
                    // Where the band's maximum output limits the gain (within 3 dB), the target is not the rule's.
                    guard level + target < band.maximumOutputSPL - 3 else { continue }
                    let error = measuredInsertionGain(processor, frequencyHz: f, inputSPL: level) - target
                    if abs(error) > abs(worst ?? 0) { worst = error }
                    #expect(abs(error) <= bound, "\(rule) \(Int(sampleRate)) Hz \(name) \(Int(f)) Hz at \(Int(level)) dB SPL: error \(error) dB")
                }
                worstOverall = max(worstOverall, abs(worst ?? 0))
                row.append(worst.map { String(format: "%+.1f", $0) } ?? "MPO")
            }
            table.append("| \(name) | " + row.joined(separator: " | ") + " |")
        }
        print("Largest insertion-gain error (dB) over 50/65/80 dB SPL, \(rule.rawValue), \(sampleRate / 1000) kHz, 256-point WOLA, 64-sample hop:\n"
              + table.joined(separator: "\n") + "\nworst: \(worstOverall) dB")
    }
}
