import Foundation

/// Everything reading says besides the text itself, in one language, from `Templates/<language>.json`.
public struct ReadingPhrases: Sendable, Equatable, Decodable {
    public let language: String
    /// Said instead of anything doubtful: nothing passed the honesty filters.
    public let noText: String
    public let pageEnd: String
    public let pagePaused: String
    public let shortTextStarted: String
    public let shortTextStopped: String

    public enum LoadError: Error, Equatable, Sendable {
        case languageNotAvailable(String)
        case unreadable(String)
    }

    /// The phrases shipped for `language` ("en").
    public static func bundled(language: String = "en") throws(LoadError) -> ReadingPhrases {
        guard let url = Bundle.module.url(forResource: language, withExtension: "json", subdirectory: "Templates"),
              let data = try? Data(contentsOf: url) else { throw .languageNotAvailable(language) }
        do {
            return try JSONDecoder().decode(ReadingPhrases.self, from: data)
        } catch {
            throw .unreadable(String(describing: error))
        }
    }
}
