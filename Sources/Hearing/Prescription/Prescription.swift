import Foundation

/// What the input levels of the fitting targets refer to.
public enum LevelReference: String, Sendable, Equatable, Codable, CaseIterable {
    /// The level in the band itself (a pure tone's level): per-channel FIG6 practice.
    case band
    /// The overall level of speech that would put the measured level into the band (ANSI S3.5
    /// speech spectrum), so speech at 65 dB SPL gets the 65 dB SPL targets in every band, as
    /// openMHA's gain rules do with the long-term speech spectrum.
    case speech
}

/// How a prescription is made from an audiogram: the rule, and the limits a fitter sets.
public struct FittingOptions: Sendable, Equatable, Codable {
    public var rule: FittingRule
    /// What the soft/medium/loud input levels refer to; see `LevelReference`.
    public var levelReference: LevelReference
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

    public init(rule: FittingRule = .fig6, levelReference: LevelReference = .band, kneeLevelSPL: Double = 45,
                maximumCompressionRatio: Double = 3, linearRuleCompressionRatio: Double = 1, maximumOutputSPL: Double = 100) {
        self.rule = rule
        self.levelReference = levelReference
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
    /// Added to a measured band level to get the level the targets refer to: 0 with
    /// `LevelReference.band`, the speech spectrum's overall-minus-band level with `.speech`.
    public let levelOffsetDecibels: Double

    public static let softLevelSPL = 50.0, mediumLevelSPL = 65.0, loudLevelSPL = 80.0

    /// Compression ratio between soft and medium input (input dB per output dB).
    public var lowerCompressionRatio: Double { 15 / (15 - (softGain - mediumGain)) }
    /// Compression ratio between medium and loud input, also used above loud.
    public var upperCompressionRatio: Double { 15 / (15 - (mediumGain - loudGain)) }

    /// `inputLevelSPL` is in the units of `levelReference`: with `.band` (the default) the level
    /// in this band, what a pure tone at the band's frequency measures (per-channel FIG6
    /// practice); speech at 65 dB SPL overall then puts 37–62 dB SPL into the bands and gets the
    /// larger gains prescribed for those levels. With `.speech` it is the overall speech level.
    ///
    /// The gain for a measured band level (what the compressor sees), through `levelOffsetDecibels`.
    @inlinable public func insertionGain(bandLevelSPL: Double) -> Double {
        insertionGain(inputLevelSPL: bandLevelSPL + levelOffsetDecibels)
    }

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
            let chainBand = BandLayout.centreFrequenciesHz.firstIndex(of: f) ?? 0
            let offset = options.levelReference == .speech ? SpeechSpectrum.chainBandOffsetsDecibels[chainBand] : 0
            return BandTarget(frequencyHz: f, thresholdHL: audiogram.thresholdHL(atHz: f),
                              softGain: soft, mediumGain: medium, loudGain: loud,
                              kneeLevelSPL: options.kneeLevelSPL, maximumOutputSPL: mpo, levelOffsetDecibels: offset)
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
