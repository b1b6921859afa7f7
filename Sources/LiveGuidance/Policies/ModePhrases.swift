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

    /// The phrases shipped for `language` ("en").
    public static func bundled(language: String = "en") throws(SentenceFileError) -> ModePhrases {
        try SentenceFiles.load(ModePhrases.self, what: "sentences of the guidance modes", language: language, kind: "modes",
                               folder: "Templates", in: .module)
    }
}
