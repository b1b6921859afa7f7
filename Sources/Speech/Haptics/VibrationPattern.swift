import AssistCore
import Foundation
import Synchronization

/// A vibration: `pulseCount` pulses of `pulseSeconds`, `gapSeconds` apart, at `strength` 0–1.
public struct VibrationPattern: Sendable, Equatable {
    public var pulseCount: Int
    public var pulseSeconds: Double
    public var gapSeconds: Double
    public var strength: Double

    public init(pulseCount: Int, pulseSeconds: Double, gapSeconds: Double, strength: Double) {
        self.pulseCount = max(pulseCount, 1)
        self.pulseSeconds = max(pulseSeconds, 0.01)
        self.gapSeconds = max(gapSeconds, 0)
        self.strength = min(max(strength, 0), 1)
    }

    public var durationSeconds: Double { Double(pulseCount) * pulseSeconds + Double(pulseCount - 1) * gapSeconds }

    /// An obstacle at `distanceMeters`: farther than 5 m one short soft pulse; as it comes
    /// closer, more pulses (up to 4 at 0.5 m), longer and stronger, closer together — urgency
    /// felt without counting.
    public static func obstacle(distanceMeters: Double) -> VibrationPattern {
        // An unknown distance (NaN) is felt as far: min/max pass NaN through, and Int(NaN) traps.
        let closeness = distanceMeters.isNaN ? 0 : min(max((5 - distanceMeters) / 4.5, 0), 1)
        return VibrationPattern(pulseCount: 1 + Int((closeness * 3).rounded()),
                                pulseSeconds: 0.08 + 0.07 * closeness,
                                gapSeconds: 0.15 - 0.08 * closeness,
                                strength: 0.3 + 0.7 * closeness)
    }

    /// One long strong pulse: something went wrong (the voice failed, the audio device is gone).
    public static let alert = VibrationPattern(pulseCount: 1, pulseSeconds: 0.3, gapSeconds: 0, strength: 1)
}

/// What the user chose about vibration (`feedback.hapticsEnabled`, `feedback.hapticStrength`).
public struct HapticPreferences: Sendable, Equatable {
    public var enabled: Bool
    /// 0 (barely felt) to 1 (every pattern as strong as guidance asks).
    public var strength: Double

    public init(enabled: Bool = true, strength: Double = 1) {
        self.enabled = enabled
        self.strength = min(max(strength, 0), 1)
    }

    /// `pattern` as the user wants it felt: its strength scaled from a quarter (strength 0, still
    /// felt: a pulse too weak to notice would be no warning at all) to all of it (strength 1).
    public func scaled(_ pattern: VibrationPattern) -> VibrationPattern {
        var felt = pattern
        felt.strength = pattern.strength * (0.25 + 0.75 * strength)
        return felt
    }
}

/// Why vibration failed, as one sentence.
public enum HapticError: UserFacingError, Equatable {
    case notAvailable
    case cannotOpen(path: String, reason: String)
    case noRumble(path: String)
    case failed(path: String, reason: String)

    public var userMessage: String {
        switch self {
        case .notAvailable:
            return "Haptic feedback is not available on this device."
        case .cannotOpen(let path, let reason):
            return "The vibration device \(path) could not be opened: \(reason)."
        case .noRumble(let path):
            return "The input device \(path) cannot vibrate (it has no rumble force feedback)."
        case .failed(let path, let reason):
            return "Vibration on \(path) failed: \(reason)."
        }
    }
}

/// Something that can vibrate.
public protocol VibrationOutput: AnyObject, Sendable {
    func vibrate(_ pattern: VibrationPattern) throws(HapticError)
}

/// Keeps the patterns it was asked to play, for tests.
public final class RecordingVibration: VibrationOutput {
    private let recorded = Mutex<[VibrationPattern]>([])
    public init() {}
    public func vibrate(_ pattern: VibrationPattern) throws(HapticError) {
        recorded.withLock { $0.append(pattern) }
    }
    public var patterns: [VibrationPattern] { recorded.withLock { $0 } }
}

