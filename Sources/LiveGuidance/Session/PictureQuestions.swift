import AssistCore
import Foundation
import Perception
import Synchronization

/// A question the user asks about what the camera sees now, answered from the newest frame rather
/// than by the object detector: "read the text", "read the page", "what colour is this", "is the
/// light on", "how many faces".
public enum PictureQuestion: String, Sendable, Equatable, CaseIterable {
    /// Short text (a sign, a label): starts short-text mode (see `PictureQuestions.shortText(in:)`).
    case readText
    /// A whole page: the thorough reading, said in parts the user can stop and continue ("more").
    case readPage
    /// The colour in the centre of the view.
    case colour
    /// Whether the room is bright, dim or dark.
    case light
    /// How many faces are in view (never who, nor age, gender or mood).
    case countFaces
}

/// Answers questions about one frame. The session hands it the newest frame on a thread of its own
/// (under a watchdog), so it may block for as long as a page takes to read; it must not keep the frame.
///
/// Lives here as a protocol so the live loop stays free of Tesseract and the face cascades: the
/// program that builds the session passes an implementation (`PictureAnswers` in its own target).
public protocol PictureQuestions: Sendable {
    /// The sentences to say, in order (a long text in as many sentences as it needs; the queue
    /// cuts them into parts of at most 3 s). Throws when the question cannot be answered at all
    /// (a missing language or cascade), with the one sentence that says why. `context`: what the
    /// session knows of the frame besides its pixels (its people, and how it words found things).
    func answer(_ question: PictureQuestion, about frame: Frame, context: FrameContext) throws(PictureQuestionError) -> [String]

    /// Short-text mode (as Seeing AI's), started by "read text": forgets the texts said before and
    /// returns the sentence that confirms the start ("Reading text.").
    func startShortText() -> String
    /// One quick reading of a frame in short-text mode, on the frame's own clock: the text to say
    /// now (steady over a few readings and not said since `startShortText()`), or nil. Throws as
    /// `answer` does.
    func shortText(in frame: Frame) throws(PictureQuestionError) -> String?
    /// The sentence said when "stop" ends short-text mode ("Stopped reading.").
    func stopShortText() -> String
}

/// What the session knows of the frame a question is about, beyond its pixels.
public struct FrameContext: Sendable {
    /// The boxes of the people the object detector found in this frame (empty: it found nobody),
    /// or nil when it was not run: faces are looked for on people's heads, as `assist see --faces` does.
    public var people: [BoundingBox]?
    /// Sentences saying where found things are and how far ("Face, 3 meters, slightly right."),
    /// with the session's camera geometry, units and wording; a face on a person is as far away as
    /// that person (`FaceDetector.atTheirPeoplesDistance`).
    public var describe: @Sendable ([Detection]) -> [String]

    public init(people: [BoundingBox]?, describe: @escaping @Sendable ([Detection]) -> [String]) {
        self.people = people
        self.describe = describe
    }

    /// Nothing known beyond the pixels: no people, and found things not placed.
    public static let pixelsOnly = FrameContext(people: nil, describe: { _ in [] })
}

/// Why a question about the picture got no answer; its sentence is said as it is.
public struct PictureQuestionError: Error, Equatable, Sendable, UserFacingError {
    public let userMessage: String

    public init(_ sentence: String) {
        userMessage = sentence
    }
}

/// Counts every "stop" and "exit" the moment it is sent, so an answer that was being worked out
/// meanwhile is dropped rather than said after the user asked for silence.
final class SilenceRequests: Sendable {
    private let count = Mutex(0)
    func note() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
