import AssistCore
import Foundation
import Guidance
import Inference
import LiveGuidance
import Media
import Perception
import PictureAnswers
import Speech
import Storage

/// How a depth file's numbers are stored, by the names users type.
public enum DepthFileFormat: String, Sendable, CaseIterable {
    case mm, tum, sun, nyu

    public var encoding: DepthImageFile.Encoding {
        switch self {
        case .mm: return .millimeters16
        case .tum: return .tum
        case .sun: return .sunRotated
        case .nyu: return .nyuKinectDisparity
        }
    }
}

/// Where a picture's measured depth comes from: a named depth image, or a companion file
/// NAME_depth_mm.pgm/.png found beside NAME_color.* or NAME.*.
public struct MeasuredDepthChoice: Sendable, Equatable {
    /// A depth image registered to the picture (one picture only).
    public var depthPath: String?
    public var format: DepthFileFormat
    /// Look for a companion depth file beside each picture.
    public var pairsCompanionFiles: Bool

    public init(depthPath: String? = nil, format: DepthFileFormat = .mm, pairsCompanionFiles: Bool = true) {
        self.depthPath = depthPath
        self.format = format
        self.pairsCompanionFiles = pairsCompanionFiles
    }

    /// The measured depth for a picture; nil when there is none (or a depth model is used instead).
    public func measuredDepth(forColorImage url: URL, image: RGBImage, usesDepthModel: Bool) throws -> DepthMap? {
        let file: DepthImageFile?
        if let depthPath {
            file = DepthImageFile(URL(fileURLWithPath: depthPath), encoding: format.encoding)
        } else if pairsCompanionFiles && !usesDepthModel {
            file = DepthImageFile.companion(forColorImage: url)
        } else {
            file = nil
        }
        guard let file else { return nil }
        let map = try file.decode()
        try file.requireSameSize(map, as: image)
        return map
    }
}

/// The answer to `assist see --ask`, and what it was based on (the objects it counted, placed,
/// measured or read; empty for an answer from the whole picture or one the picture cannot give).
public struct PictureAnswer: Encodable, Sendable {
    public var question: String
    public var sentences: [String]
    public var basedOn: [LocatedObject]
}

/// One picture's outcome in `--json`: the report, or the sentence saying why there is none.
public struct PictureResult: Encodable, Sendable {
    public var source: String
    public var report: SceneReport?
    public var error: String?
    /// The picture itself could not be read (missing, not a picture, damaged), as opposed to a
    /// failure while describing it.
    public var pictureUnreadable = false
    /// The answer to the question asked about the picture, when one was asked.
    public var answer: PictureAnswer?

    enum CodingKeys: String, CodingKey { case source, report, error, answer }

    public init(source: String, report: SceneReport?, error: String?, pictureUnreadable: Bool = false) {
        self.source = source
        self.report = report
        self.error = error
        self.pictureUnreadable = pictureUnreadable
    }
}

/// `assist see` on pictures: each one described once, with the stored settings (changes made
/// meanwhile by another process apply from the next picture on), recorded in the history, and
/// said sentence by sentence.
public struct PictureDescription {
    public var detector: DetectorChoice
    public var depthModel: DepthModelChoice
    public var measuredDepth: MeasuredDepthChoice
    public var camera: CameraChoice
    public var description: DescriptionChoice
    /// Also find faces (how many, where, how far; never who).
    public var findsFaces = false
    /// A question answered about each picture (`assist see --ask`) instead of describing it: the
    /// words as asked, and the question they were understood as.
    public var question: (words: String, meaning: PictureQuestion)?
    /// The voice's rate, so a page read in answer is said in parts of at most 3 s.
    public var wordsPerMinute = 175
    public var keepsHistory = true

    public init(detector: DetectorChoice = DetectorChoice(), depthModel: DepthModelChoice = DepthModelChoice(),
                measuredDepth: MeasuredDepthChoice = MeasuredDepthChoice(), camera: CameraChoice = CameraChoice(),
                description: DescriptionChoice = DescriptionChoice()) {
        self.detector = detector
        self.depthModel = depthModel
        self.measuredDepth = measuredDepth
        self.camera = camera
        self.description = description
    }

    /// Describes every picture; `onResult` gets each as it is done (to print it). A failure to
    /// start is a `PictureDescriptionError` of its kind (the model, as in a live run); a picture
    /// that fails is a result with its sentence, and the others are still described.
    /// `spokenOutput` is made once the model is loaded (nil: not spoken).
    public func describe(_ paths: [String], spokenOutput: () throws -> SpokenOutput?,
                         onResult: (PictureResult) -> Void) throws -> [PictureResult] {
        // The first picture is decoded before the models are loaded (issue 39): a 49-megapixel
        // PNG decodes to a 147-MB frame that is freed once scaled, so its peak and the models'
        // (about 250 MB) no longer add up. Later pictures are decoded in turn, as before.
        var firstPicture = paths.first.map(Self.decodedPicture)
        var models: LoadedModels? = try loadModels()
        let classNames = models?.detector.classNames.names ?? []
        let faceDetector: FaceDetector?
        do throws(FaceModelError) { faceDetector = findsFaces ? try FaceDetector.located() : nil } catch {
            throw PictureDescriptionError.faceModelUnavailable(reason: error.userMessage)
        }
        let answers: PictureAnswers?
        do throws(PictureQuestionError) { answers = question == nil ? nil : try PictureAnswers(wordsPerMinute: wordsPerMinute) } catch {
            throw PictureDescriptionError.cannotStart(reason: error.userMessage)
        }
        let userData = UserData.open(knownCategories: classNames)
        var stored = userData?.currentSettings()
        var analyzer: SceneAnalyzer? = try models.map { try makeAnalyzer($0.detector, $0.depth, stored: stored) }
        let session = keepsHistory ? try? userData?.usage.start(mode: "picture description") : nil
        defer { if let session { try? userData?.usage.finish(session: session) } }
        let spoken = try spokenOutput()

        var results: [PictureResult] = []
        for (index, path) in paths.enumerated() {
            // Settings changed by another process (assist settings set, a voice command) apply
            // from the next picture on.
            if let latest = userData?.currentSettings(), latest != stored {
                stored = latest
                analyzer = nil
            }
            let decoded: DecodedPicture
            if index == 0, let first = firstPicture {
                decoded = first
                firstPicture = nil
            } else if Self.decodesLargerThanModels(path) {
                // Its decoded frame is as big as the models (a 49-megapixel PNG: 147 MB before it
                // is scaled): they are given back while it is decoded and loaded again after, so
                // the two are never in memory together (issue 39; about half a second more).
                analyzer = nil
                models = nil
                decoded = Self.decodedPicture(path)
            } else {
                decoded = Self.decodedPicture(path)
            }
            let loaded = try models ?? loadModels()
            models = loaded
            let pictureAnalyzer = try analyzer ?? makeAnalyzer(loaded.detector, loaded.depth, stored: stored)
            analyzer = pictureAnalyzer
            let result = describe(decoded, with: pictureAnalyzer, faceDetector: faceDetector, answers: answers)
            results.append(result)
            if let report = result.report, keepsHistory {
                userData?.record(report.announced, mode: "picture description", session: session)
            }
            onResult(result)
            if let spoken {
                // One utterance per sentence: each stays short, and none is dropped for length.
                var sentences = result.answer?.sentences ?? result.report?.sentences ?? result.error.map { [$0] } ?? []
                if paths.count > 1 { sentences.insert("\(result.source).", at: 0) }
                for (number, sentence) in sentences.enumerated() {
                    spoken.say(Utterance(sentence, priority: .answer, contentKey: "\(index)#\(number)"))
                }
            }
        }
        try spoken?.finish()
        return results
    }

    /// The detector (and the depth model, when one is chosen) and the inference core they run on.
    struct LoadedModels {
        var core: InferenceCore
        var detector: ObjectDetector
        var depth: DepthEstimator?
    }

    /// The models, or the failure to start of their kind.
    func loadModels() throws -> LoadedModels {
        do {
            let core = try InferenceCore()
            return LoadedModels(core: core, detector: try detector.makeDetector(core: core, warn: UserData.warn),
                                depth: try depthModel.makeEstimator(core: core, options: detector.inferenceOptions))
        } catch {
            throw PictureDescriptionError.modelUnavailable(reason: userMessage(for: error))
        }
    }

    /// Pictures whose file says they have more pixels than this (20 megapixels: 60 MB decoded,
    /// about 150 MB for the largest allowed) are decoded with the models given back.
    static let pixelsDecodedWithoutModels = 20_000_000

    static func decodesLargerThanModels(_ path: String) -> Bool {
        (PictureSize.declared(atPath: path)?.pixels ?? 0) > pixelsDecodedWithoutModels
    }

    /// All described; none of them could be read (as a live input that cannot be opened); or some
    /// could not be described.
    public static func outcome(of results: [PictureResult]) -> Outcome {
        guard results.contains(where: { $0.error != nil }) else { return .allDescribed }
        return results.allSatisfy(\.pictureUnreadable) ? .noneReadable : .someNotDescribed
    }

    /// How a description of pictures went, for its owner to report.
    public enum Outcome: Sendable, Equatable {
        case allDescribed, noneReadable, someNotDescribed
    }

    func makeAnalyzer(_ objectDetector: ObjectDetector, _ depthEstimator: DepthEstimator?,
                      stored: Storage.Settings?) throws -> SceneAnalyzer {
        do {
            return try SceneAnalyzer(
                detector: objectDetector, depthEstimator: depthEstimator,
                locator: try ObjectLocator(camera: try camera.settings(storedFieldOfViewDegrees: stored?.camera.fieldOfViewDegrees)),
                describer: SceneDescriber(language: description.language, settings: try description.settings(stored: stored)),
                iouThreshold: description.iouThreshold(stored: stored),
                ignoredCategories: Set(stored?.detection.ignoredCategories ?? []),
                // A question about a still picture is answered from a second look (issue 38):
                // there is no next frame to confirm a doubtful sighting.
                secondLook: question == nil ? nil : .mirrored)
        } catch {
            throw PictureDescriptionError.cannotStart(reason: userMessage(for: error))
        }
    }

    /// A picture is described from at most this many pixels on its longer side (issue 39: a
    /// 48-megapixel photo took 445–497 MB, over the 400 MB asked). The detector sees 640 pixels
    /// and faces are searched in reduced head regions, so nothing is lost; distances follow the
    /// field of view, not the pixel count.
    static let largestPictureSidePixels = 4096

    /// What a question about `frame` is answered from: its report's objects and people, worded and
    /// located by `analyzer` (faces on people as far away as their people), as in a live session.
    public static func questionContext(report: SceneReport, frame: Frame, analyzer: SceneAnalyzer) -> FrameContext {
        let people = report.objects.filter { $0.label == FaceDetector.personLabel }
        let locator = analyzer.locator, describer = analyzer.describer
        return FrameContext(people: people.map(\.detection.box), objects: report.objects, describer: describer) { found in
            guard let located = try? locator.locate(found, in: frame) else { return [] }
            return describer.sentences(forFaces: FaceDetector.atTheirPeoplesDistance(located, people: people))
        }
    }

    /// The question answered from the picture's report, as a live session answers it about a frame.
    private func answer(_ question: (words: String, meaning: PictureQuestion), about frame: Frame, report: SceneReport,
                        analyzer: SceneAnalyzer, with answers: PictureAnswers) throws -> PictureAnswer {
        let context = Self.questionContext(report: report, frame: frame, analyzer: analyzer)
        if case .scene(let scene) = question.meaning {
            let answer = try answers.answer(scene, about: frame.image, context: context)
            return PictureAnswer(question: question.words, sentences: answer.sentences, basedOn: answer.basis)
        }
        return PictureAnswer(question: question.words, sentences: try answers.answer(question.meaning, about: frame, context: context), basedOn: [])
    }

    /// A picture read from its file, or the sentence saying why it could not be, with the time
    /// the decoding took.
    struct DecodedPicture {
        var url: URL
        var image: Result<RGBImage, ImageInputError>
        var milliseconds: Double
    }

    static func decodedPicture(_ path: String) -> DecodedPicture {
        let url = URL(fileURLWithPath: path)
        let clock = ContinuousClock()
        let start = clock.now
        let image = Result { () throws(ImageInputError) in try ImageFile(url).decode(fittingWithin: largestPictureSidePixels) }
        return DecodedPicture(url: url, image: image, milliseconds: (clock.now - start).milliseconds)
    }

    private func describe(_ decoded: DecodedPicture, with analyzer: SceneAnalyzer, faceDetector: FaceDetector?, answers: PictureAnswers?) -> PictureResult {
        let url = decoded.url
        let image: RGBImage
        switch decoded.image {
        case .success(let decodedImage): image = decodedImage
        case .failure(let error):
            return PictureResult(source: url.lastPathComponent, report: nil, error: userMessage(for: error), pictureUnreadable: true)
        }
        do {
            let decodeMilliseconds = decoded.milliseconds
            var frame = Frame(image: image, sourceName: url.lastPathComponent)
            do {
                frame.depth = try measuredDepth.measuredDepth(forColorImage: url, image: image,
                                                              usesDepthModel: depthModel.modelPath != nil)
            } catch where measuredDepth.depthPath == nil {
                // A depth file found beside the picture that cannot be used is no reason to skip
                // the picture: distances fall back to the estimate from the picture (issue 16).
                UserData.warn("\(userMessage(for: error)) Distances in \(url.lastPathComponent) are estimated from the picture instead.")
            }
            var report = try analyzer.analyze(frame)
            if let faceDetector {
                // Faces are objects like any other: located by the same geometry, said by the same
                // templates; searched on the heads of the people the detector found.
                let people = report.objects.filter { $0.label == FaceDetector.personLabel }
                let found = FaceDetector.atTheirPeoplesDistance(
                    try analyzer.locator.locate(try faceDetector.detect(in: image, people: people.map(\.detection.box)), in: frame),
                    people: people)
                if !found.isEmpty {
                    // "No object detected." is no longer true once a face is found.
                    if report.objects.isEmpty { report.sentences = [] }
                    report.objects += found
                    report.announced += found
                    report.sentences += analyzer.describer.sentences(forFaces: found)
                }
            }
            report.timings.decodeMilliseconds = decodeMilliseconds
            var result = PictureResult(source: url.lastPathComponent, report: report, error: nil)
            if let question, let answers {
                result.answer = try answer(question, about: frame, report: report, analyzer: analyzer, with: answers)
            }
            return result
        } catch {
            return PictureResult(source: url.lastPathComponent, report: nil, error: userMessage(for: error))
        }
    }
}

/// Why pictures could not be described at all.
public enum PictureDescriptionError: UserFacingError, Equatable {
    /// The detector (or the depth model) is missing or damaged (`reason`: its sentence).
    case modelUnavailable(reason: String)
    /// Faces were asked for and the face model is missing or damaged.
    case faceModelUnavailable(reason: String)
    /// The question answerers, the settings or the camera model could not be prepared.
    case cannotStart(reason: String)

    public var userMessage: String {
        switch self {
        case .modelUnavailable(let reason), .cannotStart(let reason): return reason
        case .faceModelUnavailable(let reason): return "Faces cannot be found. \(reason)"
        }
    }
}
