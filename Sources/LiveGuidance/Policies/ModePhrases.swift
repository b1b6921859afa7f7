import AssistCore
import Foundation
import Guidance

/// What the modes say in one language, read from `Templates/<language>.modes.json`. Sentences
/// about objects themselves ("Chair, 2 meters, left.") come from the describer's `Phrasebook`;
/// this file holds only what the modes add around them.
public struct ModePhrases: Sendable, Equatable, Decodable {
    public struct ModeConfirmations: Sendable, Equatable, Decodable {
        public var continuous: String
        public var onDemand: String
        public var explore: String
        public var navigate: String
        /// "Looking for {targetPlural}."
        public var find: String
        /// "Is there a person ahead?" acknowledged.
        public var findAhead: String
        /// The light detector started.
        public var light: String
    }

    public struct ViewMessages: Sendable, Equatable, Decodable {
        public var noObject: String
        public var tooDark: String
        public var tooBlurred: String
        /// Added to an on-demand description that found nothing.
        public var nothingFoundSuggestion: String
    }

    public struct ExplorePhrases: Sendable, Equatable, Decodable {
        public var count: PluralForms
        /// "{count}, closest first: {items}."
        public var summary: String
        /// "{count}: {items}." — one object has no order to announce.
        public var summaryOne: String
        /// "{object}, {distance}, {direction}"
        public var item: String
        public var itemSeparator: String
    }

    public struct NavigationPhrases: Sendable, Equatable, Decodable {
        /// A class-free obstacle: "Obstacle, {distance} ahead."
        public var obstacle: String
        public var pathClear: String
        /// The answer to "are there any obstacles?" when no cue could look far enough to say "clear".
        public var noObstacleSeen: String
    }

    public struct FindPhrases: Sendable, Equatable, Decodable {
        public var found: String
        public var notFound: String
        public var aheadYes: String
        public var aheadNo: String
        public var cannotDetect: String
        /// "Find" with no name after it.
        public var nameMissing: String
        public var nameSeparator: String
    }

    public let language: String
    public let modeOn: ModeConfirmations
    public let view: ViewMessages
    /// A hazard's whole sentence when it closes in on the user: "Bus coming closer, 3 meters, ahead."
    /// It names what is coming, since a warning heard alone must say what to step away from.
    public let hazardApproaching: String
    public let explore: ExplorePhrases
    public let navigation: NavigationPhrases
    public let find: FindPhrases

    public init(json: Data) throws {
        do {
            self = try JSONDecoder().decode(ModePhrases.self, from: json)
        } catch {
            throw ModePhrasesError.unreadable(detail: String(describing: error))
        }
    }

    /// The phrases shipped for `language`; English when that language has no file yet.
    public static func bundled(language: String = "en") throws -> ModePhrases {
        guard let url = Bundle.module.url(forResource: "\(language).modes", withExtension: "json", subdirectory: "Templates")
            ?? Bundle.module.url(forResource: "en.modes", withExtension: "json", subdirectory: "Templates") else {
            throw ModePhrasesError.missing(language: language)
        }
        do {
            return try ModePhrases(json: Data(contentsOf: url))
        } catch let error as ModePhrasesError {
            throw error
        } catch {
            throw ModePhrasesError.missing(language: language)
        }
    }

    /// `template` with each `{name}` replaced in one pass, so braces inside a value stay as they are.
    static func fill(_ template: String, _ values: [String: String]) -> String {
        Phrasebook.fill(template, values)
    }

    /// The first letter upper-cased: a filled-in sentence may begin with an object's name.
    static func capitalized(_ sentence: String) -> String {
        guard let first = sentence.first else { return sentence }
        return first.uppercased() + sentence.dropFirst()
    }
}

public enum ModePhrasesError: UserFacingError, Equatable {
    case missing(language: String)
    case unreadable(detail: String)

    public var userMessage: String {
        switch self {
        case .missing(let language):
            return "The sentences of the guidance modes for '\(language)' are missing from the installation."
        case .unreadable(let detail):
            return "The guidance modes' phrase file is not valid JSON of the expected shape (\(detail))."
        }
    }
}
