import AssistCore
import Foundation

/// Finds faces (that a face is there, its place and size; never who it is, nor age, gender or
/// mood) with YuNet, the small neural face detector of OpenCV's model zoo, run through the
/// project's OpenVINO wrapper (OpenVINO reads its ONNX file directly; see ../shared/MODELS.md).
///
/// YuNet replaced three Haar cascades, which needed mirrored and tilted passes and hand-set vote
/// counts to find two of the faces in bus.jpg, and still called a knife rack and a monitor faces
/// on coco128 pictures without people (issue 38).
///
/// Holds one compiled model per input shape and uses one at a time (a lock makes it safe to share
/// between threads; a second caller waits).
public final class FaceDetector: @unchecked Sendable {
    /// Where the model lies inside a models folder (`ModelLocator`'s candidates).
    public static let relativePath = "face_detection_yunet/face_detection_yunet_2026may.onnx"
    public static let label = "face"
    /// The object detector's label whose boxes faces are searched on (`detect(in:people:)`).
    public static let personLabel = "person"
    /// Not a COCO class: faces get their own index after the detector's 80.
    public static let classIndex = 80

    /// Pictures are analysed with their longer side at most this many pixels (never enlarged),
    /// padded to a multiple of 32 (YuNet's coarsest stride): a 640×480 camera frame as it is. A face
    /// must then span about 10 pixels, some 6 m away for an adult. Larger inputs cost quadratically
    /// and found no more of the faces a user can be told about.
    public var analysisLongSidePixels = 640
    /// A face alone, when nothing else is known about the picture (`detect(in:)`), needs this score
    /// (sqrt(class × objectness)). 0.9 is the model zoo's demo threshold; on the coco128 pictures
    /// without people the highest score was a dog's face at 0.88, and the faces of bus.jpg scored 0.89–0.92.
    public var scoreThreshold: Float = 0.9
    /// A face on a person the object detector found needs only this score: the place is already a
    /// head, so a smaller or turned face counts (in zidane.jpg the turned face scores 0.87).
    public var onPersonScoreThreshold: Float = 0.6
    /// Boxes overlapping a higher-scoring face by more than this are the same face (OpenCV's 0.3).
    public var overlapThreshold: Float = 0.3

    public let modelURL: URL
    private let core: InferenceCore
    private let options: InferenceOptions
    private let lock = NSLock()
    /// Compiled models by padded input size; frames of one camera all share one.
    private var shapes: [Size: (compiled: CompiledModel, request: InferenceRequest)] = [:]
    /// A camera gives one size, a folder of pictures a few; beyond this many the oldest is dropped.
    private let shapeCacheCapacity = 3
    private var shapeOrder: [Size] = []

    struct Size: Hashable { var width: Int, height: Int }

    /// The model in the first models folder that has it ($ASSIST_MODELS, the config file, ../shared/models).
    public static func located(locator: ModelLocator = ModelLocator(), options: InferenceOptions = InferenceOptions())
        throws(FaceModelError) -> FaceDetector {
        for folder in locator.candidateDirectories {
            let model = folder.appendingPathComponent(relativePath)
            if FileManager.default.fileExists(atPath: model.path) { return try FaceDetector(model: model, options: options) }
        }
        throw .modelNotFound(searched: locator.candidateDirectories.map(\.path))
    }

    /// `model`: YuNet's ONNX file. It is read now (a damaged file is an error here, not at the first
    /// picture); it is compiled for each picture size on first use.
    public init(model: URL, options: InferenceOptions = InferenceOptions()) throws(FaceModelError) {
        guard FileManager.default.fileExists(atPath: model.path) else { throw .modelNotFound(searched: [model.path]) }
        modelURL = model
        self.options = options
        do {
            core = try InferenceCore()
            let read = try core.readModel(at: model)
            guard try read.outputCount() == 12 else {
                throw FaceModelError.unexpectedOutput(detail: "it has \(try read.outputCount()) outputs, YuNet has 12")
            }
        } catch let error as InferenceError {
            throw .inference(error)
        } catch let error as FaceModelError {
            throw error
        } catch {
            throw .unexpectedOutput(detail: String(describing: error))
        }
    }

    /// Faces in `image`, largest first, as detections labelled "face", when nothing else is known
    /// about the picture (no object detector ran): those scoring at least `scoreThreshold`. The
    /// confidence is YuNet's score.
    public func detect(in image: RGBImage) throws(FaceModelError) -> [Detection] {
        try candidates(in: image).filter { $0.score >= scoreThreshold }.map(Self.detection).sorted { $0.box.area > $1.box.area }
    }

    /// Faces in `image`, largest first, given the boxes of the people the object detector found
    /// there (an empty list: it looked and found nobody). At most one face per person, on its head;
    /// a face-like pattern away from every person (a dog's face, a doughnut) is not called a face,
    /// as the detector tells a person from a pattern better than a face detector alone does.
    /// Without a detector, use `detect(in:)`.
    public func detect(in image: RGBImage, people: [BoundingBox]) throws(FaceModelError) -> [Detection] {
        guard !image.isEmpty, !people.isEmpty else { return [] }
        var taken = Set<Int>()
        var faces: [Detection] = []
        for face in try candidates(in: image) where face.score >= onPersonScoreThreshold {
            let centreX = face.box.centerX, centreY = face.box.centerY
            // Where heads overlap (one person behind another), the person whose box it tops most squarely.
            let wearers = people.indices.filter { !taken.contains($0) && Self.headRegion(of: people[$0]).contains(x: centreX, y: centreY) }
            func misfit(_ i: Int) -> Float {
                abs(centreX - people[i].centerX) / max(1, people[i].width) + abs(face.box.y0 - people[i].y0) / max(1, people[i].height)
            }
            guard let wearer = wearers.min(by: { misfit($0) < misfit($1) }) else { continue }
            taken.insert(wearer)
            faces.append(Self.detection(face))
        }
        return faces.sorted { $0.box.area > $1.box.area }
    }

    /// Where on a person a face can be: the top of the box, as tall as the box is wide (a standing
    /// person's head and shoulders; all of a box that is only a head or an upper body) but at least
    /// 40 % of its height, widened by a tenth of its width each side (a head bent beyond the box).
    static func headRegion(of person: BoundingBox) -> BoundingBox {
        let regionHeight = min(person.height * 1.05, max(person.width, 0.4 * person.height))
        return BoundingBox(x0: person.x0 - 0.1 * person.width, y0: person.y0 - 0.05 * person.height,
                           x1: person.x1 + 0.1 * person.width, y1: person.y0 + regionHeight)
    }

    static func detection(_ face: Candidate) -> Detection {
        Detection(classIndex: classIndex, label: label, confidence: face.score, box: face.box)
    }

    /// The input size for a picture: scaled so its longer side is at most `analysisLongSidePixels`,
    /// then padded right and below to a multiple of 32.
    func inputSize(for image: RGBImage) -> (scaled: Size, padded: Size, scale: Float) {
        let scale = min(1, Float(analysisLongSidePixels) / Float(max(image.width, image.height)))
        let width = max(1, Int((Float(image.width) * scale).rounded())), height = max(1, Int((Float(image.height) * scale).rounded()))
        return (Size(width: width, height: height), Size(width: (width + 31) / 32 * 32, height: (height + 31) / 32 * 32), scale)
    }

    /// Every face YuNet scores above the lower of the two thresholds, overlaps removed, in the
    /// picture's pixels.
    func candidates(in image: RGBImage) throws(FaceModelError) -> [Candidate] {
        guard !image.isEmpty else { return [] }
        let (scaled, padded, scale) = inputSize(for: image)
        let threshold = min(scoreThreshold, onPersonScoreThreshold)
        let result: Result<[Candidate], FaceModelError> = lock.withLock {
            do {
                let request = try request(for: padded)
                try request.withInput { tensor in
                    // YuNet pads with black (zeros) and reads BGR bytes 0…255, unnormalised.
                    tensor.update(repeating: 0)
                    PlanarResampler(tensorWidth: padded.width, tensorHeight: padded.height, regionX: 0, regionY: 0,
                                    regionWidth: scaled.width, regionHeight: scaled.height, scale: (1, 1, 1))
                        .resample(image, into: tensor)
                    let plane = padded.width * padded.height
                    for i in 0..<plane { tensor.swapAt(i, 2 * plane + i) }
                }
                try request.infer()
                var found: [Candidate] = []
                for (level, stride) in [8, 16, 32].enumerated() {
                    found += try Self.decode(request, level: level, stride: stride, columns: padded.width / stride,
                                             rows: padded.height / stride, threshold: threshold)
                }
                let inPicture = found.map { face in
                    Candidate(box: BoundingBox(x0: face.box.x0 / scale, y0: face.box.y0 / scale, x1: face.box.x1 / scale, y1: face.box.y1 / scale)
                        .clipped(width: image.width, height: image.height), score: face.score, classIndex: Self.classIndex)
                }
                return .success(nonMaximumSuppression(inPicture, iouThreshold: overlapThreshold, classAware: false, maximumCount: 200))
            } catch let error as FaceModelError {
                return .failure(error)
            } catch let error as InferenceError {
                return .failure(.inference(error))
            } catch {
                return .failure(.unexpectedOutput(detail: String(describing: error)))
            }
        }
        return try result.get()
    }

    /// One stride's faces: outputs `level` (class), 3 + `level` (objectness), 6 + `level` (box) in
    /// the ONNX file's order; per grid point a box as the offset of its centre from the point and
    /// the log of its size, both in strides.
    static func decode(_ request: InferenceRequest, level: Int, stride: Int, columns: Int, rows: Int,
                       threshold: Float) throws -> [Candidate] {
        let count = columns * rows
        return try request.withOutput(at: level) { classShape, classes in
            try request.withOutput(at: 3 + level) { objectShape, objectness in
                try request.withOutput(at: 6 + level) { boxShape, boxes in
                    guard classes.count == count, objectness.count == count, boxes.count == 4 * count else {
                        throw FaceModelError.unexpectedOutput(
                            detail: "stride \(stride) gave \(classShape), \(objectShape) and \(boxShape) for a \(columns)×\(rows) grid")
                    }
                    var found: [Candidate] = []
                    for i in 0..<count {
                        let score = (min(1, max(0, classes[i])) * min(1, max(0, objectness[i]))).squareRoot()
                        guard score >= threshold else { continue }
                        let column = Float(i % columns), row = Float(i / columns), s = Float(stride)
                        let box = BoundingBox(centerX: (column + boxes[4 * i]) * s, centerY: (row + boxes[4 * i + 1]) * s,
                                              width: exp(boxes[4 * i + 2]) * s, height: exp(boxes[4 * i + 3]) * s)
                        found.append(Candidate(box: box, score: score, classIndex: classIndex))
                    }
                    return found
                }
            }
        }
    }

    /// The request for one padded size, compiled on first use (called under `lock`).
    private func request(for size: Size) throws(InferenceError) -> InferenceRequest {
        if let shaped = shapes[size] { return shaped.request }
        if shapes.count >= shapeCacheCapacity, let oldest = shapeOrder.first {
            shapes[oldest] = nil
            shapeOrder.removeFirst()
        }
        let model = try core.readModel(at: modelURL)
        try model.reshapeInput(to: [1, 3, size.height, size.width])
        let compiled = try core.compile(model, options: options)
        let request = try compiled.makeRequest()
        shapes[size] = (compiled, request)
        shapeOrder.append(size)
        return request
    }
}

extension BoundingBox {
    func contains(x: Float, y: Float) -> Bool { x >= x0 && x <= x1 && y >= y0 && y <= y1 }
}

/// Why faces cannot be found; one sentence for the user.
public enum FaceModelError: Error, UserFacingError, Equatable {
    case modelNotFound(searched: [String])
    case inference(InferenceError)
    case unexpectedOutput(detail: String)

    public var userMessage: String {
        switch self {
        case .modelNotFound(let searched):
            return "The face model \(FaceDetector.relativePath) is missing "
                + "(looked in: \(searched.joined(separator: ", "))); set ASSIST_MODELS to the folder that holds it."
        case .inference(let error):
            return "The face model cannot be run: \(error.userMessage)"
        case .unexpectedOutput(let detail):
            return "The face model is not the YuNet model expected (\(detail))."
        }
    }
}
