import Foundation

/// An environment program: a documented set of changes on top of the prescription.
///
/// | program | noise reduction (max attenuation) | attack / release | gain offsets |
/// |---|---|---|---|
/// | quiet | 3 dB (gentle: little noise to remove) | 5 / 80 ms | none |
/// | conversation-in-noise (alias restaurant) | 12 dB | 5 / 50 ms (fast, follows the talker) | −6 dB at 250 Hz, −3 dB at 500 Hz (babble and upward spread of masking are low-frequency) |
/// | music | off (sustained notes would be taken for noise) | 10 / 500 ms (slow, keeps the music's dynamics) | +2 dB at 250 Hz |
/// | outdoors | 8 dB (traffic, wind) | 5 / 80 ms | −4 dB at 250 Hz, −2 dB at 500 Hz (wind) |
/// | tv | 6 dB | 5 / 100 ms | +2 dB at 2–4 kHz (dialogue clarity) |
public enum ListeningProgram: String, Sendable, Codable, CaseIterable {
    case quiet
    case conversationInNoise = "conversation-in-noise"
    case music
    case outdoors
    case tv

    public init(named name: String) throws {
        let key = name.lowercased().replacingOccurrences(of: "_", with: "-").replacingOccurrences(of: " ", with: "-")
        let aliases: [String: ListeningProgram] = ["restaurant": .conversationInNoise, "noise": .conversationInNoise,
                                                   "conversation": .conversationInNoise, "television": .tv, "outdoor": .outdoors]
        guard let program = ListeningProgram(rawValue: key) ?? aliases[key] else { throw HearingError.unknownProgram(name) }
        self = program
    }

    public var adjustments: ProgramAdjustments {
        switch self {
        case .quiet:
            return ProgramAdjustments(noiseReductionMaximumAttenuationDecibels: 3, attackSeconds: 0.005, releaseSeconds: 0.08)
        case .conversationInNoise:
            return ProgramAdjustments(noiseReductionMaximumAttenuationDecibels: 12, attackSeconds: 0.005, releaseSeconds: 0.05,
                                      gainOffsetsDecibels: [250: -6, 500: -3])
        case .music:
            return ProgramAdjustments(noiseReductionMaximumAttenuationDecibels: 0, attackSeconds: 0.01, releaseSeconds: 0.5,
                                      gainOffsetsDecibels: [250: 2])
        case .outdoors:
            return ProgramAdjustments(noiseReductionMaximumAttenuationDecibels: 8, attackSeconds: 0.005, releaseSeconds: 0.08,
                                      gainOffsetsDecibels: [250: -4, 500: -2])
        case .tv:
            return ProgramAdjustments(noiseReductionMaximumAttenuationDecibels: 6, attackSeconds: 0.005, releaseSeconds: 0.1,
                                      gainOffsetsDecibels: [2000: 2, 3000: 2, 4000: 2])
        }
    }
}

/// What a program changes. Offsets are given at standard frequencies; bands not named get 0 dB.
public struct ProgramAdjustments: Sendable, Equatable {
    /// 0 turns noise reduction off. Kept ≤ 12 dB: deeper attenuation starts to remove speech.
    public let noiseReductionMaximumAttenuationDecibels: Double
    public let attackSeconds: Double
    public let releaseSeconds: Double
    public let gainOffsetsDecibels: [Double: Double]

    public init(noiseReductionMaximumAttenuationDecibels: Double, attackSeconds: Double, releaseSeconds: Double,
                gainOffsetsDecibels: [Double: Double] = [:]) {
        self.noiseReductionMaximumAttenuationDecibels = noiseReductionMaximumAttenuationDecibels
        self.attackSeconds = attackSeconds
        self.releaseSeconds = releaseSeconds
        self.gainOffsetsDecibels = gainOffsetsDecibels
    }

    public func gainOffset(atHz f: Double) -> Double { gainOffsetsDecibels[f] ?? 0 }
}
