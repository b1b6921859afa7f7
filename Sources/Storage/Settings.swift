import AssistCore
import Foundation

/// Everything the user can set, with the defaults a new user gets. Values here are always valid:
/// they come from these defaults or through `SettingsSchema`'s validation.
public struct Settings: Codable, Equatable, Sendable {
    public var detection = DetectionSettings()
    public var speech = SpeechSettings()
    public var feedback = FeedbackSettings()
    public var scanning = ScanningSettings()
    /// Longer scan intervals and fewer announcements to save battery.
    public var batterySaver = false
    public var camera = CameraSettings()
    public var units = MeasurementUnits.metric
    /// How long announced detections are kept before they are deleted automatically.
    public var historyRetentionHours = 24.0

    public init() {}

    public static let defaults = Settings()
}

public struct DetectionSettings: Codable, Equatable, Sendable {
    /// Detections below this confidence are not announced (`VisionLimits` says why 0.6).
    public var confidenceThreshold = VisionLimits.defaultConfidenceThreshold
    /// Non-maximum-suppression overlap (intersection over union) above which boxes merge.
    public var iouThreshold = VisionLimits.defaultIoUThreshold
    /// The most objects announced for one frame.
    public var maximumObjects = 5
    /// Announced first, before nearer objects of other categories.
    public var prioritisedCategories = ["person"]
    /// Never announced.
    public var ignoredCategories: [String] = []
    /// Whether the hazard categories sound their warning tones at all ("turn off hazard
    /// warnings"); the rules in `hazards` are kept for when they are turned on again.
    public var hazardAlerts = true
    /// Categories that sound a warning tone when near.
    public var hazards = [
        HazardRule(category: "car", tone: .pulse, intensity: 0.8),
        HazardRule(category: "bus", tone: .pulse, intensity: 0.8),
        HazardRule(category: "truck", tone: .pulse, intensity: 0.8),
        HazardRule(category: "motorcycle", tone: .pulse, intensity: 0.8),
        HazardRule(category: "bicycle", tone: .chirp, intensity: 0.6),
    ]

    public init() {}
}

/// A category that warns with a tone, and how strongly (0 silent … 1 loudest).
public struct HazardRule: Codable, Equatable, Sendable {
    public var category: String
    public var tone: HazardTone
    public var intensity: Double

    public init(category: String, tone: HazardTone, intensity: Double) {
        self.category = category
        self.tone = tone
        self.intensity = intensity
    }
}

public enum HazardTone: String, Codable, CaseIterable, Sendable {
    case beep, chirp, pulse, siren
}

public struct SpeechSettings: Codable, Equatable, Sendable {
    /// "natural" (the natural voice), "fast", or an espeak-ng voice name (`assist say --list-voices` lists them).
    public var voice = "en-us"
    /// BCP 47 language tag for sentences and voice commands.
    public var language = "en"
    /// 80 to 500 words per minute (above 449 espeak-ng speeds up through libsonic), 175 its default.
    public var rateWordsPerMinute = 175
    /// 0 to 100, 50 the voice's normal pitch.
    public var pitch = 50
    /// 70 %: loud enough over street noise in earphones without startling (issue 3).
    public var volumePercent = 70

    public init() {}
}

public struct FeedbackSettings: Codable, Equatable, Sendable {
    public var hapticsEnabled = true
    /// 0 (barely felt) to 1 (strongest).
    public var hapticStrength = 0.6
    /// Tones panned toward the object's direction.
    public var spatialAudio = true

    public init() {}
}

/// The mode a session starts in is stored by `Mode.name`; settings written with an old name
/// ("navigation") still read (`Mode` is a `NamedChoice`).
public struct ScanningSettings: Codable, Equatable, Sendable {
    /// The mode a session starts in (never find, which needs something to look for).
    public var mode = Mode.continuous
    /// Time between scans in continuous and navigation modes.
    public var intervalSeconds = 1.0

    public init() {}
}

public struct CameraSettings: Codable, Equatable, Sendable {
    /// "default", a V4L2 device path such as /dev/video0, or an FFmpeg input name.
    public var device = "default"
    /// Horizontal field of view, used to turn image position into a direction.
    public var fieldOfViewDegrees = VisionLimits.defaultFieldOfViewDegrees

    public init() {}
}

public enum MeasurementUnits: String, Codable, CaseIterable, Sendable, NamedChoice {
    case metric, imperial

    /// The words distances are spoken in are accepted as well (`--units feet` is `units imperial`).
    public static let aliases: [String: MeasurementUnits] = ["meters": .metric, "feet": .imperial]

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let units = Self(name: name) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown units \(name)"))
        }
        self = units
    }
}
