import AssistCore
import Foundation
import Guidance

/// What the live session itself says — start-up, states, faults — in one language, read from
/// `Templates/<language>.session.json` (the modes' sentences are in `<language>.modes.json`).
/// Placeholders in braces (`{camera}`, `{reason}`) are filled in by the session.
public struct SessionSentences: Sendable, Equatable, Decodable {
    public var activated: String
    /// A start-up check failed; `{reason}` is the failure's own sentence.
    public var startupFailed: String
    public var endOfVideo: String
    public var endOfPictures: String
    public var streamStopped: String
    public var cameraRetrying: String
    public var detectionFailed: String
    public var goodbye: String
    public var paused: String
    public var resumed: String
    public var alreadyPaused: String
    public var batterySaverOn: String
    public var batterySaverOnLowBattery: String
    public var batterySaverOff: String
    public var cameraSwitched: String
    public var onlyOneCamera: String
    public var switchNeedsCamera: String
    public var cameraSwitchFailed: String
    public var nothingToRepeat: String
    public var nothingMore: String
    /// The input ended while a long answer was still being said, and the end of the session cut it.
    public var answerCut: String
    public var afterUse: String
    public var afterUseFileInput: String
    public var reactivated: String
    public var reactivationFailed: String
    public var depthModelFailed: String
    public var unreadableFrames: String
    public var unreadableInput: String
    public var detectionError: String
    /// A question about the picture ("read the text") in a session built without the means to answer it.
    public var questionUnavailable: String
    /// A question about the picture took longer than `questionWatchdogSeconds`.
    public var questionTimedOut: String

    /// The sentences shipped for `language` ("en").
    public static func bundled(language: String = "en") throws(SentenceFileError) -> SessionSentences {
        try SentenceFiles.load(SessionSentences.self, what: "session sentences", language: language, kind: "session",
                               folder: "Templates", in: .module)
    }
}
