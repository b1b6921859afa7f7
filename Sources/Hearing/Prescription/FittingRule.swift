import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A published prescription rule: from an ear's thresholds to insertion-gain targets.
///
/// Insertion gain (REIG) is the level at the eardrum with the aid minus the level without it,
/// per frequency, for a given input level. Linear rules give one gain for every input level;
/// FIG6 gives different gains for soft, medium and loud input (wide dynamic range compression).
public enum FittingRule: String, Sendable, Codable, CaseIterable {
    /// Byrne & Dillon (1986), "The National Acoustic Laboratories' (NAL) new procedure for
    /// selecting the gain and frequency response of a hearing aid", Ear Hear 7:257–265.
    case nalR = "nal-r"
    /// NAL-R revised for profound losses: Byrne, Parkinson & Newall (1990), Ear Hear 11:40–49,
    /// and (1991) in The Vanderbilt Hearing-Aid Report II, York Press, pp. 295–300.
    case nalRP = "nal-rp"
    /// The half-gain rule (Lybarger 1944): insertion gain = half the threshold.
    case halfGain = "half-gain"
    /// POGO, "Prescription Of Gain and Output": McCandless & Lyregaard (1983), Hearing
    /// Instruments 34(1):16–21.
    case pogo = "pogo"
    /// FIG6: Killion & Fikret-Pasa (1993), "The 3 types of sensorineural hearing loss: loudness
    /// and intelligibility considerations", Hearing Journal 46(11):31–36.
    case fig6 = "fig6"

    public var isLinear: Bool { self != .fig6 }

    public init(named name: String) throws {
        let key = name.lowercased().replacingOccurrences(of: "_", with: "-")
        let aliases: [String: FittingRule] = ["nalr": .nalR, "nalrp": .nalRP, "half": .halfGain, "halfgain": .halfGain, "fig-6": .fig6]
        guard let rule = FittingRule(rawValue: key) ?? aliases[key.replacingOccurrences(of: "-", with: "")] ?? aliases[key] else {
            throw HearingError.unknownFittingRule(name)
        }
        self = rule
    }

    /// Insertion gain in dB at `frequencyHz` for an input of `inputLevelSPL` dB SPL (ignored by
    /// the linear rules). Negative gains are clipped to 0, as NAL-R prescribes.
    public func insertionGain(for ear: EarAudiogram, frequencyHz f: Double, inputLevelSPL: Double = 65) -> Double {
        let h = ear.thresholdHL(atHz: f)
        switch self {
        case .halfGain:
            return max(0, 0.5 * h)
        case .pogo:
            return max(0, 0.5 * h + Self.pogoCorrection(f))
        case .nalR, .nalRP:
            let h3FA = (ear.thresholdHL(atHz: 500) + ear.thresholdHL(atHz: 1000) + ear.thresholdHL(atHz: 2000)) / 3
            var x = 0.15 * h3FA
            var gain = 0.31 * h + Self.nalK(f)
            if self == .nalRP {
                // NAL-RP: gain rises by 0.2 dB per dB of 3FA above 60 dB HL (Byrne et al. 1990)…
                if h3FA > 60 { x += 0.2 * (h3FA - 60) }
                // …and the slope flattens for a 2 kHz threshold of 95 dB HL or more (1991, Fig. 9).
                gain += Self.nalRPProfoundCorrection(frequencyHz: f, threshold2kHz: ear.thresholdHL(atHz: 2000))
            }
            gain += x
            return max(0, gain)
        case .fig6:
            return Self.fig6Gain(thresholdHL: h, inputLevelSPL: inputLevelSPL)
        }
    }

    // MARK: NAL-R

    /// k(f) of NAL-R (Byrne & Dillon 1986, Table 1; Dillon, Hearing Aids, 2nd ed., §10.3):
    /// the speech-equalising gain for 0 dB HL. NAL-R defines 250–6000 Hz; at 125 Hz and 8 kHz we
    /// hold the nearest defined value (our extension, so the chain has a target in every band).
    static let nalKTable: [Double: Double] = [
        250: -17, 500: -8, 750: -3, 1000: 1, 1500: 1, 2000: -1, 3000: -2, 4000: -2, 6000: -2,
    ]

    static func nalK(_ f: Double) -> Double { EarAudiogram.interpolate(nalKTable, at: f)! }

    /// NAL-RP corrections (dB) for 2 kHz thresholds of 95…120 dB HL in 5 dB rows, at 250, 500,
    /// 1000, 1500, 2000, 3000, 4000 and 6000 Hz (Byrne, Parkinson & Newall 1991, Fig. 9, as
    /// tabulated by Dillon, Hearing Aids). Between rows the correction is interpolated linearly;
    /// above 120 dB HL the last row holds; 750 Hz is interpolated in log frequency.
    static let nalRPRowsHL: [Double] = [95, 100, 105, 110, 115, 120]
    static let nalRPFrequencies: [Double] = [250, 500, 1000, 1500, 2000, 3000, 4000, 6000]
    static let nalRPCorrections: [[Double]] = [
        [4, 3, 0, -1, -2, -2, -2, -2],
        [6, 4, 0, -2, -3, -3, -3, -3],
        [8, 5, 0, -3, -5, -5, -5, -5],
        [11, 7, 0, -3, -6, -6, -6, -6],
        [13, 8, 0, -4, -8, -8, -8, -8],
        [15, 9, 0, -5, -9, -9, -9, -9],
    ]

    static func nalRPProfoundCorrection(frequencyHz f: Double, threshold2kHz h2k: Double) -> Double {
        guard h2k >= 95 else { return 0 }
        let position = min((h2k - 95) / 5, Double(nalRPRowsHL.count - 1))
        let lower = Int(position.rounded(.down)), upper = min(lower + 1, nalRPRowsHL.count - 1)
        let t = position - Double(lower)
        func row(_ i: Int) -> Double {
            let table = Dictionary(uniqueKeysWithValues: zip(nalRPFrequencies, nalRPCorrections[i]))
            return EarAudiogram.interpolate(table, at: f)!
        }
        return row(lower) + t * (row(upper) - row(lower))
    }

    // MARK: POGO

    /// POGO's low-frequency reductions: −10 dB at 250 Hz, −5 dB at 500 Hz, none above
    /// (McCandless & Lyregaard 1983). 125 Hz takes the 250 Hz value (our extension).
    static func pogoCorrection(_ f: Double) -> Double {
        if f <= 250 { return -10 }
        if f <= 500 { return -5 }
        return 0
    }

    // MARK: FIG6

    /// FIG6 insertion gains (Killion & Fikret-Pasa 1993) for threshold H dB HL:
    /// soft (40 dB SPL): 0 for H < 20; H − 20 for 20 ≤ H ≤ 60; H − 20 − 0.5(H − 60) above.
    /// medium (65 dB SPL): 0 for H < 20; 0.6(H − 20) for 20 ≤ H ≤ 60; 0.8H − 23 above.
    /// loud (95 dB SPL): 0 for H < 40; 0.1(H − 40)^1.4 above.
    public static func fig6Gain40(_ h: Double) -> Double {
        if h < 20 { return 0 }
        if h <= 60 { return h - 20 }
        return h - 20 - 0.5 * (h - 60)
    }

    public static func fig6Gain65(_ h: Double) -> Double {
        if h < 20 { return 0 }
        if h <= 60 { return 0.6 * (h - 20) }
        return 0.8 * h - 23
    }

    public static func fig6Gain95(_ h: Double) -> Double {
        h < 40 ? 0 : 0.1 * pow(h - 40, 1.4)
    }

    /// FIG6 at any input level: linear in dB between the three published points, gain held
    /// below 40 dB SPL, the 65→95 slope continued above 95 dB SPL (clipped at 0 dB).
    static func fig6Gain(thresholdHL h: Double, inputLevelSPL l: Double) -> Double {
        let g40 = fig6Gain40(h), g65 = fig6Gain65(h), g95 = fig6Gain95(h)
        if l <= 40 { return g40 }
        if l <= 65 { return g40 + (l - 40) / 25 * (g65 - g40) }
        return max(0, g65 + (l - 65) / 30 * (g95 - g65))
    }
}
