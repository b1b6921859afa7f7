import AssistCore
import Foundation
import Guidance
import LiveGuidance
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

    /// What is wrong with a value given for this description, as one sentence naming the option; nil when nothing is.
    public var problem: String? {
        // The ranges of the stored settings these options stand in for: one definition, one message.
        if let c = minimumConfidence, !VisionLimits.confidenceThreshold.contains(Double(c)) {
            return "--confidence must be \(SettingsSchema.confidenceThreshold.allowed), not \(numberText(Double(c)))."
        }
        if let iou = iouThreshold, !VisionLimits.iouThreshold.contains(Double(iou)) {
            return "--iou must be \(SettingsSchema.iouThreshold.allowed), not \(numberText(Double(iou)))."
        }
        if let n = maximumObjects, n < 1 { return "--max-objects must be at least 1, not \(n)." }
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
    public func stages(from stored: Storage.Settings?, depthModel: Bool) throws -> SessionStages {
        let description = try settings(stored: stored)
        return SessionStages(
            analyzer: AnalyzerRequirements(description: description,
                                           ignoredCategories: Set(stored?.detection.ignoredCategories ?? []),
                                           depthModel: depthModel),
            guidance: GuidanceSettings(storedOrDefault: stored),
            describer: try SceneDescriber(language: language, settings: description))
    }

    /// What a running session is given when the stored settings change from `previous` to
    /// `stored`: the stages' settings (`stages(from:depthModel:)`), the voice to speak with
    /// (`voice`, nil: unchanged), the vibration when it changed, and the battery saver when it
    /// changed (`--battery-saver` keeps winning).
    public func sessionUpdate(from stored: Storage.Settings, previous: Storage.Settings?, voice: SpeechVoiceSettings?,
                              depthModel: Bool) -> SessionSettingsUpdate {
        var update = SessionSettingsUpdate(guidance: GuidanceSettings(stored: stored), voice: voice)
        if stored.batterySaver != previous?.batterySaver { update.batterySaver = stored.batterySaver }
        if stored.feedback != previous?.feedback { update.haptics = HapticPreferences(stored: stored.feedback) }
        if let stages = try? stages(from: stored, depthModel: depthModel) {
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

extension ScanningMode {
    /// The stored (and `--mode`) name's guidance mode: the same words (`GuidanceMode.name`).
    public var guidanceMode: GuidanceMode {
        switch self {
        case .continuous: return .continuous
        case .onDemand: return .onDemand
        case .explore: return .explore
        case .navigate: return .navigate
        case .light: return .light
        }
    }
}
