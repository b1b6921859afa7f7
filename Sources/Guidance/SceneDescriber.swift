import AssistCore
import Perception

/// Turns located objects into the sentences the user hears, most urgent first.
///
/// Order: the categories the user prioritised first (`DescriptionSettings.prioritisedCategories`);
/// within each part, objects with a known distance, closest first, then those with an unknown
/// distance; ties and the unknown ones by confidence, surest first. Objects below the confidence threshold are
/// never mentioned. When the picture is too dark or too blurred, that is the only sentence: objects
/// found in such a picture are not to be trusted.
public struct SceneDescriber: Sendable {
    public let phrasebook: Phrasebook
    public let settings: DescriptionSettings

    public init(phrasebook: Phrasebook, settings: DescriptionSettings = .standard) {
        self.phrasebook = phrasebook
        self.settings = settings
    }

    /// With the phrases shipped for `language`.
    public init(language: String = "en", settings: DescriptionSettings = .standard) throws {
        self.init(phrasebook: try Phrasebook.bundled(language: language), settings: settings)
    }

    /// The sentences to speak, in order: at most `settings.maximumObjects`, or one message.
    public func sentences(for objects: [LocatedObject], imageQuality: ImageQualityVerdict = .ok) -> [String] {
        switch imageQuality {
        case .tooDark: return [phrasebook.messages.tooDark]
        case .tooBlurred: return [phrasebook.messages.tooBlurred]
        case .ok: break
        }
        let mentions = self.mentions(of: objects)
        guard !mentions.isEmpty else { return [phrasebook.messages.noObject] }
        return mentions.map(sentence(for:))
    }

    /// Sentences for faces the face detector found: every one is said (the object threshold is not
    /// theirs), so what is said agrees with how many were counted.
    public func sentences(forFaces faces: [LocatedObject]) -> [String] {
        SceneDescriber(phrasebook: phrasebook, settings: settings.mentioningEveryConfidence).sentences(for: faces)
    }

    /// One sentence's worth: a single object, or several alike ones said together.
    public struct Mention: Sendable, Equatable {
        /// The objects, closest (or surest) first; more than one only when grouped.
        public let objects: [LocatedObject]
        public let distance: SpokenDistance
        public let directionPhrase: String
        public var label: String { objects[0].label }
    }

    /// The objects that will be spoken about, filtered, ordered, grouped and cut to the maximum.
    public func mentions(of objects: [LocatedObject]) -> [Mention] {
        var mentions: [Mention] = []
        for object in orderedForSpeech(objects) {
            let distance = SpokenDistance(meters: object.distance.meters, unit: settings.unit)
            let direction = directionPhrase(object.direction)
            if settings.groupsAlikeObjects,
               let index = mentions.firstIndex(where: {
                   $0.label == object.label && $0.distance == distance && $0.directionPhrase == direction
               }) {
                mentions[index] = Mention(objects: mentions[index].objects + [object], distance: distance,
                                          directionPhrase: direction)
            } else {
                mentions.append(Mention(objects: [object], distance: distance, directionPhrase: direction))
            }
        }
        return Array(mentions.prefix(settings.maximumObjects))
    }

    /// Above the threshold, prioritised categories first; then known distances closest first,
    /// then unknown ones; ties by confidence.
    public func orderedForSpeech(_ objects: [LocatedObject]) -> [LocatedObject] {
        let prioritised = settings.prioritisedCategories
        return objects.enumerated()
            .filter { $0.element.confidence >= settings.minimumConfidence }
            .sorted { a, b in
                let aFirst = prioritised.contains(a.element.label), bFirst = prioritised.contains(b.element.label)
                if aFirst != bFirst { return aFirst }
                switch (a.element.distance.meters, b.element.distance.meters) {
                case let (da?, db?) where da != db: return da < db
                case (.some, nil): return true
                case (nil, .some): return false
                default:
                    if a.element.confidence != b.element.confidence { return a.element.confidence > b.element.confidence }
                    return a.offset < b.offset
                }
            }
            .map(\.element)
    }

    public func sentence(for mention: Mention) -> String {
        let count = mention.objects.count
        let objectPhrase = count == 1
            ? phrasebook.objectName(label: mention.label, count: 1)
            : SentenceFiles.fill(phrasebook.group, ["count": String(count),
                                      "objects": phrasebook.objectName(label: mention.label, count: count)])
        let templates = phrasebook.sentences.templates(for: settings.sentenceStyle)
        let template: String
        switch (mention.distance, count == 1) {
        case (.unknown, true): template = templates.oneUnknownDistance
        case (.unknown, false): template = templates.groupUnknownDistance
        case (_, true): template = templates.one
        case (_, false): template = templates.group
        }
        let sentence = SentenceFiles.fill(template, ["object": objectPhrase, "distance": distancePhrase(mention.distance),
                                       "direction": mention.directionPhrase])
        return Self.capitalizingFirstLetter(sentence)
    }

    public func distancePhrase(_ distance: SpokenDistance) -> String {
        func counted(_ count: Int, _ unit: DistanceUnit) -> String {
            let forms = unit == .meters ? phrasebook.distance.meters : phrasebook.distance.feet
            return SentenceFiles.fill(forms.form(count: count), ["count": String(count)])
        }
        switch distance {
        case .unknown: return phrasebook.distance.unknown
        case .lessThan(let count, let unit): return SentenceFiles.fill(phrasebook.distance.lessThan, ["distance": counted(count, unit)])
        case .about(let count, let unit): return counted(count, unit)
        }
    }

    public func directionPhrase(_ direction: Direction) -> String {
        let horizontal: String
        switch settings.directionStyle {
        case .clock:
            horizontal = SentenceFiles.fill(phrasebook.clock, ["hour": String(direction.clockHour)])
        case .words:
            let words = phrasebook.directions
            switch direction.horizontal {
            case .left: horizontal = words.left
            case .slightlyLeft: horizontal = words.slightlyLeft
            case .ahead: horizontal = words.ahead
            case .slightlyRight: horizontal = words.slightlyRight
            case .right: horizontal = words.right
            }
        }
        let vertical: String
        switch direction.vertical {
        case .level: return horizontal
        case .highUp: vertical = phrasebook.vertical.highUp
        case .lowDown: vertical = phrasebook.vertical.lowDown
        }
        return SentenceFiles.fill(phrasebook.directionWithVertical, ["direction": horizontal, "vertical": vertical])
    }

    static func capitalizingFirstLetter(_ sentence: String) -> String {
        guard let first = sentence.first else { return sentence }
        return first.uppercased() + sentence.dropFirst()
    }
}
