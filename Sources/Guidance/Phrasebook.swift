import AssistCore
import Foundation

/// Singular and plural of a word, as the language file gives them.
public struct PluralForms: Sendable, Equatable, Codable {
    public var one: String
    public var other: String

    /// English-style choice: `one` for exactly 1, `other` otherwise. A language with more plural
    /// categories (Polish, Arabic) needs more keys here; none ships yet.
    public func form(count: Int) -> String { count == 1 ? one : other }
}

/// The four sentence shapes of one style: a single object or a group, with a known or unknown distance.
public struct SentenceTemplates: Sendable, Equatable, Codable {
    public var one: String
    public var group: String
    public var oneUnknownDistance: String
    public var groupUnknownDistance: String
}

/// The sentence shapes of every `SentenceStyle`.
public struct SentenceStyles: Sendable, Equatable, Codable {
    public let brief: SentenceTemplates
    public let full: SentenceTemplates

    public func templates(for style: SentenceStyle) -> SentenceTemplates {
        switch style {
        case .brief: return brief
        case .full: return full
        }
    }
}

/// Everything said to the user in one language, read from `Templates/<language>.json`.
///
/// The words are data, not code, so a translator edits one file; placeholders in braces
/// (`{object}`, `{distance}`, `{direction}`, `{count}`, `{objects}`, `{hour}`, `{vertical}`) are
/// filled in by `SceneDescriber`. Every template is checked on load for the placeholders it needs.
public struct Phrasebook: Sendable, Equatable, Decodable {
    public struct DistancePhrases: Sendable, Equatable, Codable {
        public var unknown: String
        /// "less than {distance}", where {distance} is the threshold in the counted form ("1 meter").
        public var lessThan: String
        public var meters: PluralForms
        public var feet: PluralForms
    }

    public struct DirectionWords: Sendable, Equatable, Codable {
        public var left: String
        public var slightlyLeft: String
        public var ahead: String
        public var slightlyRight: String
        public var right: String
    }

    public struct VerticalWords: Sendable, Equatable, Codable {
        public var highUp: String
        public var lowDown: String
    }

    public struct Messages: Sendable, Equatable, Codable {
        public var noObject: String
        public var tooDark: String
        public var tooBlurred: String
    }

    public let language: String
    public let sentences: SentenceStyles
    /// "{count} {objects}": a group's name.
    public let group: String
    public let distance: DistancePhrases
    public let directions: DirectionWords
    /// "at {hour} o'clock".
    public let clock: String
    public let vertical: VerticalWords
    /// "{direction}, {vertical}".
    public let directionWithVertical: String
    public let messages: Messages
    /// Keyed by detector label ("person"); labels missing here are spoken as they are.
    public let objects: [String: PluralForms]

    /// Reads and checks a language file's JSON.
    public init(json: Data) throws {
        do {
            self = try JSONDecoder().decode(Phrasebook.self, from: json)
        } catch {
            throw PhrasebookError.unreadable(detail: String(describing: error))
        }
        try validate()
    }

    /// The phrasebook shipped for `language` ("en"), checked.
    public static func bundled(language: String = "en") throws -> Phrasebook {
        let phrasebook = try SentenceFiles.load(Phrasebook.self, what: "spoken phrases", language: language,
                                                folder: "Templates", in: .module)
        try phrasebook.validate()
        return phrasebook
    }

    /// The languages with a file in `Templates/`, sorted: the languages the settings can offer.
    public static func bundledLanguages() -> [String] {
        SentenceFiles.languages(folder: "Templates", in: .module)
    }

    /// The object's name for `count` objects; unknown labels are spoken as the label.
    public func objectName(label: String, count: Int) -> String {
        objects[label]?.form(count: count) ?? label
    }

    private func validate() throws {
        func require(_ template: String, _ placeholders: [String], field: String) throws {
            for placeholder in placeholders where !template.contains("{\(placeholder)}") {
                throw PhrasebookError.missingPlaceholder(field: field, placeholder: "{\(placeholder)}")
            }
        }
        for style in SentenceStyle.allCases {
            let templates = sentences.templates(for: style)
            let prefix = "sentences.\(style.rawValue)"
            try require(templates.one, ["object", "distance", "direction"], field: "\(prefix).one")
            try require(templates.group, ["object", "distance", "direction"], field: "\(prefix).group")
            try require(templates.oneUnknownDistance, ["object", "direction"], field: "\(prefix).oneUnknownDistance")
            try require(templates.groupUnknownDistance, ["object", "direction"], field: "\(prefix).groupUnknownDistance")
        }
        try require(group, ["count", "objects"], field: "group")
        try require(distance.lessThan, ["distance"], field: "distance.lessThan")
        for (field, forms) in [("distance.meters", distance.meters), ("distance.feet", distance.feet)] {
            try require(forms.one, ["count"], field: "\(field).one")
            try require(forms.other, ["count"], field: "\(field).other")
        }
        try require(clock, ["hour"], field: "clock")
        try require(directionWithVertical, ["direction", "vertical"], field: "directionWithVertical")
    }
}

public enum PhrasebookError: UserFacingError, Equatable {
    case unreadable(detail: String)
    case missingPlaceholder(field: String, placeholder: String)

    public var userMessage: String {
        switch self {
        case .unreadable(let detail):
            return "The phrase file is not valid JSON of the expected shape (\(detail))."
        case .missingPlaceholder(let field, let placeholder):
            return "The phrase file's \(field) must contain \(placeholder)."
        }
    }
}
