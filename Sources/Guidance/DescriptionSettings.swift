import AssistCore

/// The unit distances are spoken in.
public enum DistanceUnit: String, Sendable, Equatable, Codable, CaseIterable, NamedChoice {
    case meters
    case feet

    /// "meters"/"metric", "feet"/"imperial": the spoken unit and the settings' name for it are
    /// both accepted wherever a unit is named (the settings store's `units` accepts both too).
    public static let aliases: [String: DistanceUnit] = ["metric": .meters, "m": .meters, "imperial": .feet, "ft": .feet]
}

/// Which sentence shape is used: "Person, 2 meters, ahead." or "Person is 2 meters away, ahead."
public enum SentenceStyle: String, Sendable, Equatable, Codable, CaseIterable {
    case brief
    case full
}

/// How directions are spoken: "slightly left" or "at 11 o'clock".
public enum DirectionStyle: String, Sendable, Equatable, Codable, CaseIterable {
    case words
    case clock
}

/// What the user chose about what is said and how.
public struct DescriptionSettings: Sendable, Equatable {
    /// Detections less sure than this are never mentioned (`VisionLimits` says why 0.6).
    public static let defaultMinimumConfidence = Float(VisionLimits.defaultConfidenceThreshold)
    /// Five sentences take about 10 seconds to speak, about what a listener keeps in mind.
    public static let defaultMaximumObjects = 5

    public let minimumConfidence: Float
    /// At most this many sentences (a group of alike objects counts once).
    public let maximumObjects: Int
    public let unit: DistanceUnit
    public let sentenceStyle: SentenceStyle
    public let directionStyle: DirectionStyle
    /// Whether objects of one kind at the same spoken distance and direction become one sentence
    /// ("2 people, 3 meters, ahead.").
    public let groupsAlikeObjects: Bool
    /// Categories the user asked to hear first ("prioritise people"): they lead every
    /// description, closest first among themselves, and are the last to be cut by `maximumObjects`.
    /// Hazard warnings do not go through here; they always come first.
    public let prioritisedCategories: Set<String>

    public static let standard = DescriptionSettings(
        checkedConfidence: defaultMinimumConfidence, maximumObjects: defaultMaximumObjects, unit: .meters,
        sentenceStyle: .brief, directionStyle: .words, groupsAlikeObjects: true, prioritisedCategories: [])

    public init(minimumConfidence: Float = DescriptionSettings.defaultMinimumConfidence,
                maximumObjects: Int = DescriptionSettings.defaultMaximumObjects,
                unit: DistanceUnit = .meters, sentenceStyle: SentenceStyle = .brief,
                directionStyle: DirectionStyle = .words, groupsAlikeObjects: Bool = true,
                prioritisedCategories: Set<String> = []) throws {
        guard minimumConfidence >= 0, minimumConfidence <= 1 else {
            throw DescriptionSettingsError.minimumConfidenceOutOfRange(minimumConfidence)
        }
        guard maximumObjects >= 1 else { throw DescriptionSettingsError.maximumObjectsBelowOne(maximumObjects) }
        self.init(checkedConfidence: minimumConfidence, maximumObjects: maximumObjects, unit: unit,
                  sentenceStyle: sentenceStyle, directionStyle: directionStyle, groupsAlikeObjects: groupsAlikeObjects,
                  prioritisedCategories: prioritisedCategories)
    }

    /// The same choices with every confidence mentioned: for things another detector already
    /// judged (a face is a face once the face detector says so; its window-count score is no
    /// object detector's confidence).
    public var mentioningEveryConfidence: DescriptionSettings {
        DescriptionSettings(checkedConfidence: 0, maximumObjects: maximumObjects, unit: unit, sentenceStyle: sentenceStyle,
                            directionStyle: directionStyle, groupsAlikeObjects: groupsAlikeObjects,
                            prioritisedCategories: prioritisedCategories)
    }

    private init(checkedConfidence: Float, maximumObjects: Int, unit: DistanceUnit, sentenceStyle: SentenceStyle,
                 directionStyle: DirectionStyle, groupsAlikeObjects: Bool, prioritisedCategories: Set<String>) {
        minimumConfidence = checkedConfidence
        self.maximumObjects = maximumObjects
        self.unit = unit
        self.sentenceStyle = sentenceStyle
        self.directionStyle = directionStyle
        self.groupsAlikeObjects = groupsAlikeObjects
        self.prioritisedCategories = prioritisedCategories
    }
}

public enum DescriptionSettingsError: UserFacingError, Equatable {
    case minimumConfidenceOutOfRange(Float)
    case maximumObjectsBelowOne(Int)

    public var userMessage: String {
        switch self {
        case .minimumConfidenceOutOfRange(let value):
            return "The minimum confidence must be between 0 and 1, not \(value)."
        case .maximumObjectsBelowOne(let value):
            return "The number of objects to announce must be at least 1, not \(value)."
        }
    }
}
