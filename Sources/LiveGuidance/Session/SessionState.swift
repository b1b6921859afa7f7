import AssistCore
import Foundation
import Guidance
import Perception
import Speech

/// Where the session is in its life. Ready → Active while all is well; Degraded when a part failed
/// and guidance goes on with what still works; After-use when camera and model were given back
/// for lack of requests; Stopped at the end.
public enum SessionState: String, Sendable, Equatable, Codable {
    case ready
    case active
    case degraded
    case afterUse = "after-use"
    case stopped
}

/// Why a session ended; the command line turns it into the exit status (`assist`'s `FailureReport`).
public enum SessionEnding: Sendable, Equatable {
    /// A file or folder came to its end ("End of video.").
    case inputEnded
    /// The user said exit.
    case userQuit
    /// A stream or camera stopped sending and did not come back ("The stream stopped.").
    case streamStopped(reason: String)
    /// Too many frames in a row could not be read.
    case unreadableInput
    /// The watchdog fired, or detection kept failing ("Detection failed.").
    case detectionFailed

    /// A fault ended the session, not the input's end or the user.
    public var isFault: Bool {
        switch self {
        case .inputEnded, .userQuit: return false
        case .streamStopped, .unreadableInput, .detectionFailed: return true
        }
    }

    public var name: String {
        switch self {
        case .inputEnded: return "input ended"
        case .userQuit: return "user quit"
        case .streamStopped: return "stream stopped"
        case .unreadableInput: return "unreadable input"
        case .detectionFailed: return "detection failed"
        }
    }
}

/// A start-up check failed: nothing ran. The sentence was already said (through whatever output
/// there is: the speaker, the rendered WAV and its transcript).
public struct SessionStartupError: UserFacingError, Equatable {
    /// What failed; the command line's exit status says which.
    public enum Kind: Sendable, Equatable {
        /// The detector (or depth model) is missing or damaged.
        case model
        /// The camera, video, stream or folder could not be opened (missing, busy, unreadable).
        case input
        /// No voice, or no audio device to say it on.
        case audio
    }
    public let userMessage: String
    public let kind: Kind
    public init(_ userMessage: String, kind: Kind) {
        self.userMessage = userMessage
        self.kind = kind
    }
}

/// What the session tells its owner as it runs.
public enum SessionEvent: Sendable {
    /// Something started being heard (or sounded), at `timeSeconds` on the session clock: what
    /// is printed or recorded as said. What was queued but never heard is never reported here.
    case said(SpokenLine)
    /// One analysed frame (or a session event such as the end), once its first audio is known.
    case cycle(CycleReport)
    case stateChanged(SessionState, timeSeconds: Double)
}

/// One heard announcement, as printed ("[12.4 s] Bus, 4 meters, ahead."), with when it started being heard.
public struct SpokenLine: Sendable, Equatable {
    public var timeSeconds: Double
    public var utterance: Utterance

    /// The words, or "[tone NAME]" for a tone alone.
    public var printedText: String {
        utterance.text.isEmpty ? utterance.earcon.map { "[tone \($0.rawValue)]" } ?? "" : utterance.text
    }
}

/// The `--json` line for one analysed frame.
public struct CycleReport: Sendable, Encodable {
    /// When the frame was captured, on the session clock (its timestamp offline).
    public var time: Double
    public var state: SessionState
    public var mode: String
    public var paused: Bool
    /// Set on the lines that are not an analysed frame: "activated", "end of video", …
    public var event: String?
    public var objects: [LocatedObject]
    public var tracks: [TrackSummary]
    public var corridor: CorridorSummary?
    public var quality: ImageQualityVerdict?
    public var announcements: [AnnouncementRecord]
    public var timings: CycleTimings
    /// The objects that what the frame made the assistant say names (repeats the queue held back
    /// excluded): what the detection history records. Not in `--json`, where `objects` has them.
    public var mentioned: [LocatedObject] = []
    /// On the "activated" line: which frames are analysed ("adaptive" or "every frame").
    public var analysisSchedule: String?
    /// Why this frame was analysed ("scene changed", "approaching", … see `AnalysisSchedule.Reason`).
    public var analysedBecause: AnalysisSchedule.Reason?
    /// On the "activated" line: the detector's precision and why (`PrecisionRule`).
    public var precision: PrecisionDecision?

    private enum CodingKeys: String, CodingKey {
        case time, state, mode, paused, event, objects, tracks, corridor, quality, announcements, timings
        case analysisSchedule, analysedBecause, precision
    }
}

/// One track in `--json`.
public struct TrackSummary: Sendable, Encodable, Equatable {
    public var id: Int
    public var label: String
    public var confirmed: Bool
    public var visible: Bool
    public var distanceMeters: Double?
    public var approachSpeedMetersPerSecond: Double?
    public var timeToCollisionSeconds: Double?
    public var angleDegrees: Double

    init(_ track: TrackedObject) {
        id = track.id.rawValue
        label = track.label
        confirmed = track.isConfirmed
        visible = track.isVisible
        distanceMeters = track.distanceMeters
        approachSpeedMetersPerSecond = track.approachSpeedMetersPerSecond
        timeToCollisionSeconds = track.timeToCollisionSeconds
        angleDegrees = track.object.direction.angleDegrees
    }
}

public struct CorridorSummary: Sendable, Encodable, Equatable {
    public var nearestObstacleMeters: Double?
    public var examinedToMeters: Double?
    public var source: String
    init(_ reading: CorridorReading) {
        nearestObstacleMeters = reading.nearestObstacleMeters
        examinedToMeters = reading.examinedToMeters
        source = reading.source.rawValue
    }
}

/// One announcement in `--json`: what was said (transcript form), and whether the queue took it.
public struct AnnouncementRecord: Sendable, Encodable, Equatable {
    /// "[tone vehicle] Bus, 4 meters, ahead.", or "[vibration]" for a vibration.
    public var said: String
    public var priority: String
    /// "queued", "suppressed as repeat" (the same content was said within the cooldown),
    /// "superseded" (taken out before it was heard: a newer scene, "stop", the end), or "held
    /// back" (an object announcement not queued because the speech channel was busy: the object,
    /// if still in view, is announced from the first frame analysed once the channel is free).
    public var outcome: String
    /// Seconds on the session clock when its first sample was heard; nil if it never played.
    public var firstAudioTime: Double?
    var queueID: Int?

    private enum CodingKeys: String, CodingKey { case said, priority, outcome, firstAudioTime }
}

public struct CycleTimings: Sendable, Encodable, Equatable {
    /// Waiting for the frame: reading and decoding it, less what was done while the last frame
    /// was analysed (`SessionConfiguration.readsFrameAhead`).
    public var captureMilliseconds: Double = 0
    /// Detection, distances, description and the corridor cue.
    public var analysisMilliseconds: Double = 0
    public var inferenceMilliseconds: Double = 0
    /// Tracking and the mode's policy.
    public var guidanceMilliseconds: Double = 0
    /// From the frame's capture to the first audible sample of what this frame made the
    /// assistant say; nil when it said nothing (or nothing that played).
    public var captureToFirstAudioMilliseconds: Double?

    private enum CodingKeys: String, CodingKey {
        case captureMilliseconds, analysisMilliseconds, inferenceMilliseconds, guidanceMilliseconds
        case captureToFirstAudioMilliseconds
    }

    /// The latency is written as null when unknown, so every line has the same keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(captureMilliseconds, forKey: .captureMilliseconds)
        try container.encode(analysisMilliseconds, forKey: .analysisMilliseconds)
        try container.encode(inferenceMilliseconds, forKey: .inferenceMilliseconds)
        try container.encode(guidanceMilliseconds, forKey: .guidanceMilliseconds)
        try container.encode(captureToFirstAudioMilliseconds, forKey: .captureToFirstAudioMilliseconds)
    }
}
