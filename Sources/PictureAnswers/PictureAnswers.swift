import AssistCore
import ColourAndLight
import Foundation
import Guidance
import LiveGuidance
import Perception
import Reading
import Synchronization

/// Answers the live session's questions about the newest frame with the same code the command-line
/// tools use: `TextReader` (`assist read`), `ColourNamer` and `LightMeter` (`assist colour`,
/// `assist light`) and `FaceDetector` (YuNet, as `assist see --faces`), worded by their own phrase files.
///
/// The recogniser and the face model are loaded at the first question that needs them, so a session
/// that is never asked to read does not pay for Tesseract, and a missing language or model is
/// one sentence when asked rather than a session that cannot start.
public final class PictureAnswers: PictureQuestions {
    public struct Phrases: Sendable, Equatable, Decodable {
        public var noFaces: String
        public var oneFace: String
        public var faces: String
        public var facesUnavailable: String
        public var readingUnavailable: String
        public var scene: SceneAnswerer.Phrases

        public static func bundled(language: String = "en") throws(SentenceFileError) -> Phrases {
            try SentenceFiles.load(Phrases.self, what: "answers to questions about the picture", language: language,
                                   folder: "Templates", in: .module)
        }
    }

    /// How the recogniser and the face detector are made; replaced in tests to stand for a
    /// missing language or face model.
    public struct Makers: Sendable {
        public var textReader: @Sendable () throws(TextRecognitionError) -> TextReader
        public var faceDetector: @Sendable () throws(FaceModelError) -> FaceDetector

        public init(textReader: @escaping @Sendable () throws(TextRecognitionError) -> TextReader,
                    faceDetector: @escaping @Sendable () throws(FaceModelError) -> FaceDetector) {
            self.textReader = textReader
            self.faceDetector = faceDetector
        }

        /// Tesseract in `language` (e.g. "eng", "eng+fra"), YuNet from the models folder.
        public static func standard(language: String = "eng") -> Makers {
            Makers(textReader: { () throws(TextRecognitionError) in try TextReader(language: language) },
                   faceDetector: { () throws(FaceModelError) in try FaceDetector.located() })
        }
    }

    private let makers: Makers
    private let wordsPerMinute: Int
    private let phrases: Phrases
    private let readingPhrases: ReadingPhrases
    private let colourPhrases: ColourAndLightPhrases
    /// Tesseract's API object is not thread-safe: one question reads at a time.
    private let reader = Mutex<TextReader?>(nil)
    private let faces = Mutex<FaceDetector?>(nil)
    /// What short-text mode saw and said since it started.
    private let shortTextPolicy = Mutex(ShortTextPolicy())

    /// `wordsPerMinute`: the voice's rate, so each part of a page fits in 3 s (`PageReading`).
    public init(makers: Makers = .standard(), wordsPerMinute: Int, language: String = "en") throws(PictureQuestionError) {
        self.makers = makers
        self.wordsPerMinute = wordsPerMinute
        do {
            phrases = try Phrases.bundled(language: language)
            readingPhrases = try ReadingPhrases.bundled(language: language)
            colourPhrases = try ColourAndLightPhrases.bundled(language: language)
        } catch {
            throw PictureQuestionError(error.userMessage)
        }
    }

    public func answer(_ question: PictureQuestion, about frame: Frame, context: FrameContext) throws(PictureQuestionError) -> [String] {
        switch question {
        case .readText:
            // The session runs short-text mode instead (`shortText(in:)`); asked as a question
            // (a session without the mode), the text is read once, thoroughly.
            let reading = try read(frame.image, effort: .thorough)
            return reading.isEmpty ? [readingPhrases.noText] : reading.lines.map(\.text)
        case .readPage:
            // A page: the thorough reading, in parts of at most 3 s, then "End of page.".
            let reading = try read(frame.image, effort: .thorough)
            guard !reading.isEmpty else { return [readingPhrases.noText] }
            return PageReading(reading, wordsPerMinute: wordsPerMinute).parts + [readingPhrases.pageEnd]
        case .colour:
            return [colourPhrases.sentence(for: ColourNamer().read(frame.image))]
        case .light:
            let meter = LightMeter()
            return [colourPhrases.sentence(for: meter.level(forBrightness: meter.brightness(of: frame.image)))]
        case .countFaces:
            // With the detector's people, as `assist see --faces` counts them (faces on heads,
            // face-like patterns on nobody dropped); without, the strict rule on the whole picture.
            let faces = try findFaces(in: frame.image, people: context.people)
            // How many, then where and how far each is, in the session's words.
            switch faces.count {
            case 0: return [phrases.noFaces]
            case 1: return [phrases.oneFace] + context.describe(faces)
            default: return [SentenceFiles.fill(phrases.faces, ["count": String(faces.count)])] + context.describe(faces)
            }
        case .scene(let question):
            return try answer(question, about: frame.image, context: context).sentences
        }
    }

    /// A question about the things in view, with what the answer was based on.
    public func answer(_ question: SceneQuestion, about image: RGBImage, context: FrameContext) throws(PictureQuestionError) -> SceneAnswer {
        let answerer = SceneAnswerer(phrases: phrases.scene, colourPhrases: colourPhrases)
        guard question != .cannotTell else {
            return try answerer.answer(question, image: image, objects: [], describer: try defaultDescriber(), read: { _ throws(PictureQuestionError) in TextReading(blocks: []) })
        }
        guard let objects = context.objects else { throw PictureQuestionError(phrases.scene.needsDetector) }
        let describer: SceneDescriber
        if let given = context.describer { describer = given } else { describer = try defaultDescriber() }
        return try answerer.answer(question, image: image, objects: objects, describer: describer,
                                   read: { picture throws(PictureQuestionError) in try read(picture, effort: .thorough) })
    }

    private func defaultDescriber() throws(PictureQuestionError) -> SceneDescriber {
        do { return try SceneDescriber() } catch {
            throw PictureQuestionError("The sentences describing what is in view are missing or damaged.")
        }
    }

    public func startShortText() -> String {
        shortTextPolicy.withLock { $0 = ShortTextPolicy() }
        return readingPhrases.shortTextStarted
    }

    public func shortText(in frame: Frame) throws(PictureQuestionError) -> String? {
        let reading = try read(frame.image, effort: .quick)
        return shortTextPolicy.withLock { $0.observe(reading, atSeconds: frame.timestampSeconds) }
    }

    public func stopShortText() -> String {
        shortTextPolicy.withLock { $0.stop() }
        return readingPhrases.shortTextStopped
    }

    private func read(_ image: RGBImage, effort: ReadingEffort) throws(PictureQuestionError) -> TextReading {
        let result = reader.withLock { stored -> Result<TextReading, TextRecognitionError> in
            do throws(TextRecognitionError) {
                let loaded: TextReader
                if let stored { loaded = stored } else { loaded = try makers.textReader() }
                stored = loaded
                return .success(try loaded.read(image, effort: effort))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let reading): return reading
        case .failure(let error):
            throw PictureQuestionError(SentenceFiles.fill(phrases.readingUnavailable, ["reason": error.userMessage]))
        }
    }

    /// Faces on `people` (nil: the object detector did not run, so the whole picture, strictly).
    private func findFaces(in image: RGBImage, people: [BoundingBox]?) throws(PictureQuestionError) -> [Detection] {
        let result = faces.withLock { stored -> Result<[Detection], FaceModelError> in
            do throws(FaceModelError) {
                let detector: FaceDetector
                if let stored { detector = stored } else { detector = try makers.faceDetector() }
                stored = detector
                if let people { return .success(try detector.detect(in: image, people: people)) }
                return .success(try detector.detect(in: image))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let found): return found
        case .failure(let error): throw PictureQuestionError(SentenceFiles.fill(phrases.facesUnavailable, ["reason": error.userMessage]))
        }
    }
}
