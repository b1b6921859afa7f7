import AssistCore
import Foundation
import Media

/// What `assist say` says: text, a tone, a direction and a vibration, on the chosen output.
public struct SayRequest {
    public var text: String?
    public var tone: Earcon?
    public var severity: Double
    public var loudTones: Set<Earcon>
    public var directionDegrees: Double?
    /// Vibrate as for an obstacle at this distance.
    public var vibrateMeters: Double?
    /// The force-feedback device; nil: the first one that can rumble.
    public var vibrationDevice: String?

    public init(text: String?, tone: Earcon?, severity: Double, loudTones: Set<Earcon>, directionDegrees: Double?,
                vibrateMeters: Double?, vibrationDevice: String?) {
        self.text = text
        self.tone = tone
        self.severity = severity
        self.loudTones = loudTones
        self.directionDegrees = directionDegrees
        self.vibrateMeters = vibrateMeters
        self.vibrationDevice = vibrationDevice
    }

    /// Says it all and waits until it is played or rendered; returns false when the voice failed for a sentence.
    public func say(on choice: SpeechChoice) throws -> Bool {
        let vibration = try vibrateMeters.map { _ in try openVibration() } ?? nil
        let output: SpokenOutput
        do {
            output = try SpokenOutput(choice, loudEarcons: loudTones, vibration: vibration)
        } catch let error as AudioDeviceError {
            SpokenOutput.alertWithoutSound(vibration)
            throw SayError.cannotPlay(reason: error.userMessage)
        }
        let utterances = Utterance.toSay(text: text, tone: tone, directionDegrees: directionDegrees, severity: severity)
        var voiceFailed = false
        for (number, utterance) in utterances.enumerated() {
            let outcome = output.say(utterance, vibrating: number == 0 ? vibrateMeters.map { VibrationPattern.obstacle(distanceMeters: $0) } : nil)
            if case .queued(let plan)? = outcome, plan.voiceFailure != nil { voiceFailed = true }
        }
        try output.finish()
        return !voiceFailed
    }

    /// The chosen force-feedback device, the first one found, or nil (the user hears once that
    /// haptic feedback is not available).
    private func openVibration() throws -> (any VibrationOutput)? {
        if let vibrationDevice {
            return try ForceFeedbackVibration(path: vibrationDevice)
        }
        return ForceFeedbackVibration.findDevice()
    }
}

/// Why `SayRequest.say` said nothing.
public enum SayError: UserFacingError, Equatable {
    /// There is nothing to play the sound on (`reason`: the device's own sentence); it can still be
    /// rendered into a WAV file.
    case cannotPlay(reason: String)

    public var userMessage: String {
        switch self {
        case .cannotPlay(let reason): return "\(reason) To hear it later, render it into a WAV file."
        }
    }
}
