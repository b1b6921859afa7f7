import Foundation

/// How a prescription is made from an audiogram: the rule, and the limits a fitter sets.
public struct FittingOptions: Sendable, Equatable, Codable {
    public var rule: FittingRule
    /// Compression threshold: below this band input level the gain stays constant (linear).
    /// 45 dB SPL is within the 45–50 dB SPL range usual for WDRC (Dillon, Hearing Aids, §6.2).
    public var kneeLevelSPL: Double
    /// The largest compression ratio the fitting may ask for; above ~3 speech quality suffers.
    public var maximumCompressionRatio: Double
    /// Compression ratio given to the linear rules around their 65 dB SPL gain; 1 keeps them linear.
    public var linearRuleCompressionRatio: Double
    /// The output cap (dB SPL, sine RMS). Lowered per band to the UCL where one is measured.
    public var maximumOutputSPL: Double

    /// The hard ceiling on any maximum output: 111 dB SPL. Above it a hearing aid risks further
    /// noise-induced damage (the safety limit), so no setting can exceed it.
    public static let absoluteMaximumOutputSPL: Double = 111

    public init(rule: FittingRule = .fig6, kneeLevelSPL: Double = 45, maximumCompressionRatio: Double = 3,
                linearRuleCompressionRatio: Double = 1, maximumOutputSPL: Double = 100) {
        self.rule = rule
        self.kneeLevelSPL = kneeLevelSPL
        self.maximumCompressionRatio = maximumCompressionRatio
        self.linearRuleCompressionRatio = linearRuleCompressionRatio
        self.maximumOutputSPL = maximumOutputSPL
    }
}

/// The fitted target of one band: insertion gain for soft, medium and loud input, the
/// compression that joins them, and the maximum output.
public struct BandTarget: Sendable, Equatable, Codable {
    public let frequencyHz: Double
    public let thresholdHL: Double
    /// Insertion gains (dB) for band input levels of 50, 65 and 80 dB SPL.
    public let softGain: Double
    public let mediumGain: Double
    public let loudGain: Double
    public let kneeLevelSPL: Double
    public let maximumOutputSPL: Double

    public static let softLevelSPL = 50.0, mediumLevelSPL = 65.0, loudLevelSPL = 80.0

    /// Compression ratio between soft and medium input (input dB per output dB).
    public var lowerCompressionRatio: Double { 15 / (15 - (softGain - mediumGain)) }
    /// Compression ratio between medium and loud input, also used above loud.
    public var upperCompressionRatio: Double { 15 / (15 - (mediumGain - loudGain)) }

    /// Level convention: `inputLevelSPL` is the level *in this band* (what a pure tone at the
    /// band's frequency measures), as in per-channel FIG6 implementations, not the overall level
    /// of broadband speech. Speech at 65 dB SPL overall puts 37–62 dB SPL into the bands, so the
    /// chain gives it the (larger) gains prescribed for those band levels; mapping band levels to
    /// speech-equivalent levels with the ANSI S3.5 speech spectrum (as openMHA's gain rules do)
    /// would be the alternative convention.
    ///
    /// The input/output rule the compressor runs: constant gain below the knee, straight lines
    /// through the soft, medium and loud targets above it, the loud slope continued upwards.
    /// The maximum output is applied separately (it depends on the smoothed level, not the target).
    @inlinable public func insertionGain(inputLevelSPL l: Double) -> Double {
        let level = max(l, kneeLevelSPL)
        if level <= Self.mediumLevelSPL {
            return mediumGain + (Self.mediumLevelSPL - level) / 15 * (softGain - mediumGain)
        }
        return mediumGain - (level - Self.mediumLevelSPL) / 15 * (mediumGain - loudGain)
    }
}

/// One ear's fitted target, band by band at the standard audiometric frequencies.
public struct EarPrescription: Sendable, Equatable, Codable {
    public let ear: Ear
    public let rule: FittingRule
    public let bands: [BandTarget]

    /// Fits `audiogram` with `options`. The rule's targets at 50/65/80 dB SPL are taken as
    /// they are, except that compression ratios are kept within 1…`maximumCompressionRatio`
    /// (the medium target is the anchor) and no gain is negative.
    public init(ear: Ear, audiogram: EarAudiogram, options: FittingOptions) throws {
        guard options.maximumOutputSPL.isFinite,
              (60...FittingOptions.absoluteMaximumOutputSPL).contains(options.maximumOutputSPL) else {
            throw HearingError.maximumOutputOutOfRange(options.maximumOutputSPL)
        }
        let rule = options.rule
        self.ear = ear
        self.rule = rule
        // Largest gain change across 15 dB of input allowed by the maximum ratio.
        let maxStep = 15 * (1 - 1 / max(1, options.maximumCompressionRatio))
        bands = AudiometricFrequency.all.map { f in
            var medium = rule.insertionGain(for: audiogram, frequencyHz: f, inputLevelSPL: BandTarget.mediumLevelSPL)
            var soft: Double, loud: Double
            if rule.isLinear {
                let step = 15 * (1 - 1 / max(1, options.linearRuleCompressionRatio))
                soft = medium + step
                loud = max(0, medium - step)
            } else {
                soft = rule.insertionGain(for: audiogram, frequencyHz: f, inputLevelSPL: BandTarget.softLevelSPL)
                loud = rule.insertionGain(for: audiogram, frequencyHz: f, inputLevelSPL: BandTarget.loudLevelSPL)
            }
            medium = max(0, medium)
            soft = min(max(soft, medium), medium + maxStep)
            loud = max(min(loud, medium), medium - maxStep, 0)
            var mpo = options.maximumOutputSPL
            if let ucl = audiogram.uncomfortableLevelHL(atHz: f) {
                mpo = min(mpo, LevelCalibration.spl(fromHL: ucl, frequencyHz: f))
            }
            return BandTarget(frequencyHz: f, thresholdHL: audiogram.thresholdHL(atHz: f),
                              softGain: soft, mediumGain: medium, loudGain: loud,
                              kneeLevelSPL: options.kneeLevelSPL, maximumOutputSPL: mpo)
        }
    }

    /// The band target at a standard frequency.
    public func band(atHz f: Double) -> BandTarget? { bands.first { $0.frequencyHz == f } }
}

/// Both ears' fitted targets, with the options they were fitted with.
public struct Prescription: Sendable, Equatable, Codable {
    public let left: EarPrescription
    public let right: EarPrescription
    public let options: FittingOptions

    public init(audiogram: Audiogram, options: FittingOptions = FittingOptions()) throws {
        left = try EarPrescription(ear: .left, audiogram: audiogram.left, options: options)
        right = try EarPrescription(ear: .right, audiogram: audiogram.right, options: options)
        self.options = options
    }

    public subscript(ear: Ear) -> EarPrescription { ear == .left ? left : right }
}
