import AssistCore
import Foundation
import Guidance
import LiveGuidance
import Media
import Perception
import Speech
import Storage

/// How descriptions are worded, as chosen for one run (`--confidence`, `--iou`, `--max-objects`,
/// `--units`, `--style`, `--directions`, `--language`): a value given here wins over the stored
/// setting, which wins over the default.
public struct DescriptionChoice: Sendable, Equatable {
    public var minimumConfidence: Float?
    public var iouThreshold: Float?
    public var maximumObjects: Int?
    public var unit: DistanceUnit?
    public var sentenceStyle: SentenceStyle
    public var directionStyle: DirectionStyle
    /// A file in Guidance/Templates.
    public var language: String

    public init(minimumConfidence: Float? = nil, iouThreshold: Float? = nil, maximumObjects: Int? = nil, unit: DistanceUnit? = nil,
                sentenceStyle: SentenceStyle = .brief, directionStyle: DirectionStyle = .words, language: String = "en") {
        self.minimumConfidence = minimumConfidence
        self.iouThreshold = iouThreshold
        self.maximumObjects = maximumObjects
        self.unit = unit
        self.sentenceStyle = sentenceStyle
        self.directionStyle = directionStyle
        self.language = language
    }

    /// A value given for this description that is not allowed; the command line names its option.
    /// The ranges are the stored settings' these values stand in for: one definition, one message.
    public enum Problem: UserFacingError, Equatable {
        case minimumConfidence(Float)
        case iouThreshold(Float)
        case maximumObjects(Int)

        /// The value as the user knows it, at the start of a sentence.
        public var name: String {
            switch self {
            case .minimumConfidence: return "The confidence threshold"
            case .iouThreshold: return "The overlap (IoU) threshold"
            case .maximumObjects: return "The most objects described"
            }
        }

        /// What the value must be, after its name.
        public var requirement: String {
            switch self {
            case .minimumConfidence(let c): return "must be \(SettingsSchema.confidenceThreshold.allowed), not \(numberText(Double(c)))."
            case .iouThreshold(let iou): return "must be \(SettingsSchema.iouThreshold.allowed), not \(numberText(Double(iou)))."
            case .maximumObjects(let n): return "must be at least 1, not \(n)."
            }
        }

        public var userMessage: String { "\(name) \(requirement)" }
    }

    /// What is wrong with a value given for this description; nil when nothing is.
    public var problem: Problem? {
        if let c = minimumConfidence, !VisionLimits.confidenceThreshold.contains(Double(c)) { return .minimumConfidence(c) }
        if let iou = iouThreshold, !VisionLimits.iouThreshold.contains(Double(iou)) { return .iouThreshold(iou) }
        if let n = maximumObjects, n < 1 { return .maximumObjects(n) }
        return nil
    }

    /// The NMS overlap threshold when none is stored or chosen.
    public static let defaultIoUThreshold = Float(VisionLimits.defaultIoUThreshold)

    public func settings(stored: Storage.Settings?) throws -> DescriptionSettings {
        let storedUnit: DistanceUnit? = stored.map { $0.units == .imperial ? .feet : .meters }
        return try DescriptionSettings(
            minimumConfidence: minimumConfidence ?? stored.map { Float($0.detection.confidenceThreshold) }
                ?? DescriptionSettings.defaultMinimumConfidence,
            maximumObjects: maximumObjects ?? stored?.detection.maximumObjects ?? DescriptionSettings.defaultMaximumObjects,
            unit: unit ?? storedUnit ?? .meters, sentenceStyle: sentenceStyle, directionStyle: directionStyle,
            prioritisedCategories: Set(stored?.detection.prioritisedCategories ?? []))
    }

    public func iouThreshold(stored: Storage.Settings?) -> Float {
        iouThreshold ?? stored.map { Float($0.detection.iouThreshold) } ?? Self.defaultIoUThreshold
    }

    /// What the analysis and the policies need from the stored settings (nil: none stored, the
    /// defaults) under this run's choices: the one place that turns settings into them, at start
    /// and at every change.
    /// `camera`: the run's camera choices, under which the stored field of view applies.
    public func stages(from stored: Storage.Settings?, depthModel: Bool, camera: CameraChoice = CameraChoice()) throws -> SessionStages {
        let description = try settings(stored: stored)
        return SessionStages(
            analyzer: AnalyzerRequirements(description: description,
                                           ignoredCategories: Set(stored?.detection.ignoredCategories ?? []),
                                           depthModel: depthModel, iouThreshold: iouThreshold(stored: stored),
                                           camera: try camera.settings(storedFieldOfViewDegrees: stored?.camera.fieldOfViewDegrees)),
            guidance: GuidanceSettings(storedOrDefault: stored),
            describer: try SceneDescriber(language: language, settings: description))
    }

    /// What a running session is given when the stored settings change from `previous` to
    /// `stored`: the stages' settings (`stages(from:depthModel:camera:)`: the analysis with its
    /// overlap threshold and camera, the wording), the voice to speak with (`voice`, nil:
    /// unchanged), and each of the vibration, the directional sound (never under `--mono`), the
    /// time between scans, the battery saver (`--battery-saver` keeps winning) and the camera
    /// when it changed.
    public func sessionUpdate(from stored: Storage.Settings, previous: Storage.Settings?, voice: SpeechVoiceSettings?,
                              depthModel: Bool, camera: CameraChoice = CameraChoice(), mono: Bool = false) -> SessionSettingsUpdate {
        var update = SessionSettingsUpdate(guidance: GuidanceSettings(stored: stored), voice: voice)
        if stored.batterySaver != previous?.batterySaver { update.batterySaver = stored.batterySaver }
        if stored.feedback != previous?.feedback {
            update.haptics = HapticPreferences(stored: stored.feedback)
            update.directionalSound = stored.feedback.spatialAudio && !mono
        }
        // Only a change: the time between scans as first stored is no choice of the user's, and
        // the session then analyses as fast as it can (as at start).
        if let previous, stored.scanning.intervalSeconds != previous.scanning.intervalSeconds {
            update.intervalSeconds = stored.scanning.intervalSeconds
        }
        // The camera itself: opened as `assist see camera` would open the stored one.
        if let previous, stored.camera.device != previous.camera.device,
           let input = LiveInputArgument.classify("camera", storedCamera: stored.camera.device,
                                                  cameraFormat: LiveInputArgument.cameraFormat(batterySaver: stored.batterySaver),
                                                  folderRate: 1) {
            update.camera = FrameInput.video(input)
        }
        if let stages = try? stages(from: stored, depthModel: depthModel, camera: camera) {
            update.analyzer = stages.analyzer
            update.describer = stages.describer
        }
        return update
    }
}

/// What each stage of the vision assistant is built with, from the settings.
public struct SessionStages {
    public var analyzer: AnalyzerRequirements
    public var guidance: GuidanceSettings
    public var describer: SceneDescriber
}

extension GuidanceSettings {
    /// The stored settings' guidance, or the defaults without any.
    public init(storedOrDefault stored: Storage.Settings?) {
        self = stored.map(GuidanceSettings.init(stored:)) ?? GuidanceSettings()
    }
}
