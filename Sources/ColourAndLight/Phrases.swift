import AssistCore
import Foundation

/// The words colour and light answers use, from `Templates/<language>.json`.
public struct ColourAndLightPhrases: Sendable, Equatable, Decodable {
    public struct Shades: Sendable, Equatable, Decodable {
        public var light: String
        public var dark: String
    }

    public let language: String
    /// Keyed by `BasicColour.rawValue`.
    public let colours: [String: String]
    public let shades: Shades
    public let colourOnly: String
    public let colourWithOther: String
    public let bright: String
    public let dim: String
    public let dark: String

    /// The words shipped for `language` ("en"), with a word for every basic colour.
    public static func bundled(language: String = "en") throws(SentenceFileError) -> ColourAndLightPhrases {
        let what = "words for colours and light"
        let phrases = try SentenceFiles.load(ColourAndLightPhrases.self, what: what, language: language,
                                             folder: "Templates", in: .module)
        if let missing = BasicColour.allCases.first(where: { phrases.colours[$0.rawValue] == nil }) {
            throw .damaged(what: what, language: language, detail: "no word for the colour \(missing.rawValue)")
        }
        return phrases
    }

    /// "dark blue", "white".
    public func name(_ colour: NamedColour) -> String {
        let word = colours[colour.colour.rawValue] ?? colour.colour.rawValue
        switch colour.shade {
        case .light: return SentenceFiles.fill(shades.light, ["colour": word])
        case .dark: return SentenceFiles.fill(shades.dark, ["colour": word])
        case nil: return word
        }
    }

    /// "Dark blue." or "Dark blue, with white." for the centre colour and the next main colour.
    public func sentence(for reading: ColourReading) -> String {
        let centre = name(reading.centre)
        let template: String
        if let other = reading.mainColours.first(where: { $0.colour != reading.centre }) {
            template = SentenceFiles.fill(colourWithOther, ["colour": centre, "other": name(other.colour)])
        } else {
            template = SentenceFiles.fill(colourOnly, ["colour": centre])
        }
        return SentenceFiles.capitalized(template)
    }

    public func sentence(for light: LightLevel) -> String {
        switch light {
        case .bright: bright
        case .dim: dim
        case .dark: dark
        }
    }
}
