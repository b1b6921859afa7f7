import AssistCore
import Foundation
import Guidance
import Perception
import Synchronization

/// A question the user asks about what the camera sees now, answered from the newest frame rather
/// than by the object detector alone: "read the text", "read the page", "what colour is this", "is
/// the light on", "how many faces", and questions about the things in view ("how many buses", "what
/// colour is the bus", "what's his name").
public enum PictureQuestion: Sendable, Equatable {
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
    /// A question about the things the detector found in the frame.
    case scene(SceneQuestion)

    /// A short name for the question, for utterance keys and logs.
    public var key: String {
        switch self {
        case .readText: return "readText"
        case .readPage: return "readPage"
        case .colour: return "colour"
        case .light: return "light"
        case .countFaces: return "countFaces"
        case .scene(let question): return "scene-\(question.key)"
        }
    }

    /// Whether answering needs the object detector's findings in the frame asked about.
    public var needsObjects: Bool {
        switch self {
        case .countFaces: return true
        case .scene(let question): return question != .cannotTell
        default: return false
        }
    }
}

/// The things a question names: the detector's categories ("bus"; "vehicles" → bicycle, car, …)
/// and how the user named them, to say them back.
public struct SceneTarget: Sendable, Equatable {
    public var categories: [String]
    public var singular: String
    public var plural: String
    /// "the person on the left": of several, the one furthest that way; counted and looked for
    /// only on that side of the view.
    public var side: SideOfView?

    public init(categories: [String], singular: String, plural: String, side: SideOfView? = nil) {
        self.categories = categories
        self.singular = singular
        self.plural = plural
        self.side = side
    }
}

/// A question answered from what was measured in one frame: the detector's boxes with their
/// directions and distances, the colours inside a box, the text read in or near it. What cannot be
/// measured (a name, an age, a breed, whether a shop is open) is `cannotTell`: said so, never guessed.
public enum SceneQuestion: Sendable, Equatable {
    /// "how many buses are there"
    case count(SceneTarget)
    /// "is there a dog": yes, and where; or no.
    case isThere(SceneTarget)
    /// "where is the bus"
    case whereIs(SceneTarget)
    /// "how far is the bus"
    case howFar(SceneTarget)
    /// "what colour is the bus": the colour of that object's own pixels.
    case colour(SceneTarget)
    /// "what does the bus say": text read in or near that object.
    case text(SceneTarget)
    /// "what is closest"
    case closest
    /// "what is on my left" (`left` false: on my right)
    case onSide(left: Bool)
    /// "describe the scene": one short sentence; the details follow on "more".
    case describe
    /// A question the picture cannot answer ("what's his name", "how old is she").
    case cannotTell

    public var key: String {
        switch self {
        case .count: return "count"
        case .isThere: return "isThere"
        case .whereIs: return "whereIs"
        case .howFar: return "howFar"
        case .colour: return "colour"
        case .text: return "text"
        case .closest: return "closest"
        case .onSide(let left): return left ? "onLeft" : "onRight"
        case .describe: return "describe"
        case .cannotTell: return "cannotTell"
        }
    }
}

/// Answers questions about one frame. The session hands it the newest frame on a thread of its own
/// (under a watchdog), so it may block for as long as a page takes to read; it must not keep the frame.
///
/// Lives here as a protocol so the live loop stays free of Tesseract and the face model: the
/// program that builds the session passes an implementation (`PictureAnswers` in its own target).
public protocol PictureQuestions: Sendable {
    /// The sentences to say, in order (a long text in as many sentences as it needs; the queue
    /// cuts them into parts of at most 3 s). Throws when the question cannot be answered at all
    /// (a missing language or face model), with the one sentence that says why. `context`: what the
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
    /// Everything the object detector found in this frame, closest first, with direction and
    /// distance (nil: it was not run), for questions about the things in view.
    public var objects: [LocatedObject]?
    /// The session's wording of found things (units, clock or words, names); nil: the default English one.
    public var describer: SceneDescriber?
    /// Sentences saying where found things are and how far ("Face, 3 meters, slightly right."),
    /// with the session's camera geometry, units and wording; a face on a person is as far away as
    /// that person (`FaceDetector.atTheirPeoplesDistance`).
    public var describe: @Sendable ([Detection]) -> [String]

    public init(people: [BoundingBox]?, objects: [LocatedObject]? = nil, describer: SceneDescriber? = nil,
                describe: @escaping @Sendable ([Detection]) -> [String]) {
        self.people = people
        self.objects = objects
        self.describer = describer
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
