/// Left or right. Hearing aids are fitted per ear; channel 0 of a stereo signal is the left ear.
public enum Ear: String, Sendable, Codable, CaseIterable {
    case left, right
    public var name: String { rawValue }
    public var channelIndex: Int { self == .left ? 0 : 1 }
}

/// The standard audiometric frequencies (ISO 8253-1 / ANSI S3.21 air-conduction test frequencies).
public enum AudiometricFrequency {
    public static let all: [Double] = [125, 250, 500, 750, 1000, 1500, 2000, 3000, 4000, 6000, 8000]
}

/// The hearing thresholds of one ear in dB HL, measured at some of the standard frequencies,
/// with optional uncomfortable-loudness levels (UCL, also dB HL).
///
/// Missing frequencies are interpolated linearly in log frequency between measured ones and
/// held constant beyond the lowest and highest measured frequency, the convention of clinical
/// fitting software (and of openMHA's `NalRP`, which extends the end values outwards).
public struct EarAudiogram: Sendable, Equatable, Codable {
    public let thresholdsHL: [Double: Double]
    public let uncomfortableLevelsHL: [Double: Double]

    /// Allowed thresholds: the audiometer's range, −10 to 120 dB HL.
    public static let thresholdRangeHL: ClosedRange<Double> = -10...120
    /// Allowed uncomfortable levels; below 50 dB HL no hearing aid could give audible speech.
    public static let uncomfortableRangeHL: ClosedRange<Double> = 50...140

    /// Validates every value; throws `HearingError` naming the first bad one.
    public init(ear: Ear, thresholdsHL: [Double: Double], uncomfortableLevelsHL: [Double: Double] = [:]) throws {
        for f in thresholdsHL.keys.sorted() {
            guard AudiometricFrequency.all.contains(f) else { throw HearingError.notAnAudiometricFrequency(f) }
            let v = thresholdsHL[f]!
            guard v.isFinite, Self.thresholdRangeHL.contains(v) else {
                throw HearingError.thresholdOutOfRange(ear: ear, frequencyHz: f, decibelsHL: v)
            }
        }
        for f in uncomfortableLevelsHL.keys.sorted() {
            guard AudiometricFrequency.all.contains(f) else { throw HearingError.notAnAudiometricFrequency(f) }
            let v = uncomfortableLevelsHL[f]!
            guard v.isFinite, Self.uncomfortableRangeHL.contains(v) else {
                throw HearingError.uncomfortableLevelOutOfRange(ear: ear, frequencyHz: f, decibelsHL: v)
            }
        }
        // NAL-R needs the 500/1000/2000 Hz average; every rule needs the speech range.
        for f in [500.0, 1000, 2000] where thresholdsHL[f] == nil {
            let below = thresholdsHL.keys.contains { $0 < f }, above = thresholdsHL.keys.contains { $0 > f }
            guard below && above else { throw HearingError.tooFewThresholds(ear) }
        }
        self.thresholdsHL = thresholdsHL
        self.uncomfortableLevelsHL = uncomfortableLevelsHL
    }

    /// A flat loss (every standard frequency at `decibelsHL`).
    public static func flat(_ decibelsHL: Double, ear: Ear = .left) throws -> EarAudiogram {
        try EarAudiogram(ear: ear, thresholdsHL: Dictionary(uniqueKeysWithValues: AudiometricFrequency.all.map { ($0, decibelsHL) }))
    }

    /// Threshold at any frequency, interpolated as described on the type.
    public func thresholdHL(atHz f: Double) -> Double {
        Self.interpolate(thresholdsHL, at: f)!
    }

    /// Uncomfortable level at any frequency, or nil when none was measured.
    public func uncomfortableLevelHL(atHz f: Double) -> Double? {
        Self.interpolate(uncomfortableLevelsHL, at: f)
    }

    static func interpolate(_ table: [Double: Double], at f: Double) -> Double? {
        let keys = table.keys.sorted()
        guard let first = keys.first, let last = keys.last else { return nil }
        if f <= first { return table[first]! }
        if f >= last { return table[last]! }
        let upperIndex = keys.firstIndex { $0 >= f }!
        let f1 = keys[upperIndex - 1], f2 = keys[upperIndex]
        let t = (log2(f) - log2(f1)) / (log2(f2) - log2(f1))
        return table[f1]! + t * (table[f2]! - table[f1]!)
    }
}

/// Both ears' audiograms. A hearing-aid fitting needs both; where only one ear was measured
/// the caller copies it on purpose rather than the fitting guessing.
public struct Audiogram: Sendable, Equatable {
    public let left: EarAudiogram
    public let right: EarAudiogram

    public init(left: EarAudiogram, right: EarAudiogram) {
        self.left = left
        self.right = right
    }

    public subscript(ear: Ear) -> EarAudiogram { ear == .left ? left : right }
}

#if canImport(Glibc)
import Glibc
#endif
