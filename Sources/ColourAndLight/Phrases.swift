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

    public enum LoadError: Error, Equatable, Sendable {
        case languageNotAvailable(String)
        case unreadable(String)
    }

    public static func bundled(language: String = "en") throws(LoadError) -> ColourAndLightPhrases {
        guard let url = Bundle.module.url(forResource: language, withExtension: "json", subdirectory: "Templates"),
              let data = try? Data(contentsOf: url) else { throw .languageNotAvailable(language) }
        let phrases: ColourAndLightPhrases
        do { phrases = try JSONDecoder().decode(ColourAndLightPhrases.self, from: data) } catch { throw .unreadable(String(describing: error)) }
        if let missing = BasicColour.allCases.first(where: { phrases.colours[$0.rawValue] == nil }) {
            throw .unreadable("no word for the colour \(missing.rawValue)")
        }
        return phrases
    }

    /// "dark blue", "white".
    public func name(_ colour: NamedColour) -> String {
        let word = colours[colour.colour.rawValue] ?? colour.colour.rawValue
        switch colour.shade {
        case .light: return shades.light.replacingOccurrences(of: "{colour}", with: word)
        case .dark: return shades.dark.replacingOccurrences(of: "{colour}", with: word)
        case nil: return word
        }
    }

    /// "Dark blue." or "Dark blue, with white." for the centre colour and the next main colour.
    public func sentence(for reading: ColourReading) -> String {
        let centre = name(reading.centre)
        let template: String
        if let other = reading.mainColours.first(where: { $0.colour != reading.centre }) {
            template = colourWithOther.replacingOccurrences(of: "{colour}", with: centre)
                .replacingOccurrences(of: "{other}", with: name(other.colour))
        } else {
            template = colourOnly.replacingOccurrences(of: "{colour}", with: centre)
        }
        return template.prefix(1).uppercased() + template.dropFirst()
    }

    public func sentence(for light: LightLevel) -> String {
        switch light {
        case .bright: bright
        case .dim: dim
        case .dark: dark
        }
    }
}
