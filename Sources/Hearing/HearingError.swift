import Foundation
import AssistCore

/// Everything that can go wrong while fitting or running the hearing assistant, each told to
/// the user as one sentence that names the bad value and the allowed range.
public enum HearingError: UserFacingError, Equatable {
    case missingEar(Ear)
    case thresholdOutOfRange(ear: Ear, frequencyHz: Double, decibelsHL: Double)
    case uncomfortableLevelOutOfRange(ear: Ear, frequencyHz: Double, decibelsHL: Double)
    case notAnAudiometricFrequency(Double)
    case notAFrequency(String)
    case tooFewThresholds(Ear)
    case unknownProgram(String)
    case unknownFittingRule(String)
    case sampleRateTooLow(Double)
    case unsupportedBlockSize(Int)
    case unsupportedChannelCount(Int)
    case maximumOutputOutOfRange(Double)
    case calibrationOutOfRange(Double)
    case notPrepared
    case unreadableAudiogram(path: String, reason: String)

    public var userMessage: String {
        switch self {
        case .missingEar(let ear):
            return "The audiogram has no thresholds for the \(ear.name) ear; give both ears (copy one ear if only one was measured)."
        case .thresholdOutOfRange(let ear, let f, let value):
            return "The \(ear.name) ear's threshold at \(Self.hz(f)) is \(Self.db(value)) dB HL, outside the allowed range −10 to 120 dB HL."
        case .uncomfortableLevelOutOfRange(let ear, let f, let value):
            return "The \(ear.name) ear's uncomfortable loudness level at \(Self.hz(f)) is \(Self.db(value)) dB HL, outside the allowed range 50 to 140 dB HL."
        case .notAnAudiometricFrequency(let f):
            return "\(Self.hz(f)) is not a standard audiometric frequency; use 125, 250, 500, 750, 1000, 1500, 2000, 3000, 4000, 6000 or 8000 Hz."
        case .notAFrequency(let key):
            return "“\(key)” is not a frequency; key thresholds by frequency in Hz, such as \"1000\"."
        case .tooFewThresholds(let ear):
            return "The \(ear.name) ear needs thresholds at 500, 1000 and 2000 Hz at least to be fitted."
        case .unknownProgram(let name):
            return "There is no listening program called “\(name)”; choose one of \(ListeningProgram.allCases.map(\.rawValue).joined(separator: ", "))."
        case .unknownFittingRule(let name):
            return "There is no fitting rule called “\(name)”; choose one of \(FittingRule.allCases.map(\.rawValue).joined(separator: ", "))."
        case .sampleRateTooLow(let rate):
            return "The sample rate \(numberText(rate)) Hz is too low for the hearing assistant; it needs at least 44100 Hz."
        case .unsupportedBlockSize(let size):
            return "The block size \(size) is not supported; use 16, 32 or 64 frames, or a multiple of 64."
        case .unsupportedChannelCount(let count):
            return "The hearing assistant takes mono or stereo sound, not \(count) channels."
        case .maximumOutputOutOfRange(let value):
            return "The maximum output \(Self.db(value)) dB SPL is outside the allowed range 60 to 111 dB SPL."
        case .calibrationOutOfRange(let value):
            return "The headphone calibration \(Self.db(value)) dB SPL at full scale is outside the allowed range 70 to 140 dB SPL."
        case .notPrepared:
            return "The hearing processor was asked to process sound before it was prepared."
        case .unreadableAudiogram(let path, let reason):
            return "The audiogram file \(path) could not be read: \(reason)."
        }
    }

    static func hz(_ f: Double) -> String { "\(numberText(f)) Hz" }
    static func db(_ v: Double) -> String { numberText(v, fractionDigits: 1) }
}
