import AssistCore
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

    /// The phrases shipped for `language` ("en").
    public static func bundled(language: String = "en") throws(SentenceFileError) -> ReadingPhrases {
        try SentenceFiles.load(ReadingPhrases.self, what: "reading's sentences", language: language,
                               folder: "Templates", in: .module)
    }
}
