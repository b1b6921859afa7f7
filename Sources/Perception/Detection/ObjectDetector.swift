import AssistCore
import Foundation
import Inference

/// What the detector keeps and how many it returns.
public struct DetectorSettings: Sendable, Equatable {
    /// Objects scoring below this are never reported. 0.6 is the product's safety default:
    /// a wrong object announced to a blind user costs more than a missed one.
    public var confidenceThreshold: Float
    /// Boxes of one class overlapping more than this are the same object.
    public var iouThreshold: Float
    public var maximumDetections: Int
    /// Keep every class above the threshold per anchor (Ultralytics' validation does this).
    public var multiLabel: Bool

    public init(confidenceThreshold: Float = 0.6, iouThreshold: Float = 0.45,
                maximumDetections: Int = 300, multiLabel: Bool = false) {
        self.confidenceThreshold = confidenceThreshold
        self.iouThreshold = iouThreshold
        self.maximumDetections = maximumDetections
        self.multiLabel = multiLabel
    }

    /// Ultralytics `yolo val` settings, for mAP comparable with the published numbers.
    public static let evaluation = DetectorSettings(confidenceThreshold: 0.001, iouThreshold: 0.7,
                                                    maximumDetections: 300, multiLabel: true)

    public func validated() throws -> DetectorSettings {
        guard confidenceThreshold >= 0, confidenceThreshold <= 1 else {
            throw DetectorError.invalidSetting(name: "confidence threshold", value: "\(confidenceThreshold)", allowed: "between 0 and 1")
        }
        guard iouThreshold > 0, iouThreshold <= 1 else {
            throw DetectorError.invalidSetting(name: "IoU threshold", value: "\(iouThreshold)", allowed: "above 0 and at most 1")
        }
        guard maximumDetections >= 1 else {
            throw DetectorError.invalidSetting(name: "maximum count", value: "\(maximumDetections)", allowed: "at least 1")
        }
        return self
    }
}

/// Milliseconds spent in each stage of one detection.
public struct DetectionTimings: Sendable, Codable, Equatable {
    public var preprocessMilliseconds: Double
    public var inferenceMilliseconds: Double
    public var postprocessMilliseconds: Double
}

public struct DetectionResult: Sendable {
    /// Highest confidence first.
    public var detections: [Detection]
    public var timings: DetectionTimings
}

/// A YOLO detector (Ultralytics export, OpenVINO IR or ONNX) running through OpenVINO.
///
/// Owns one inference request, so one detector serves one thread at a time.
public final class ObjectDetector {
    public let modelURL: URL
    public let classNames: ClassNames
    public let layout: YOLOOutputLayout
    public let inputWidth: Int
    public let inputHeight: Int
    public let options: InferenceOptions
    private let compiled: CompiledModel
    private let request: InferenceRequest

    public init(modelURL: URL, labelsFile: URL? = nil, options: InferenceOptions = InferenceOptions(),
                core: InferenceCore? = nil) throws {
        self.modelURL = modelURL
        self.options = options
        let core = try core ?? InferenceCore()
        try ModelChecksums.verify(modelURL)
        let model = try Self.usable(modelURL) { () throws(InferenceError) in try core.readModel(at: modelURL) }
        let name = modelURL.lastPathComponent

        guard try model.inputCount() >= 1, try model.outputCount() >= 1 else {
            throw DetectorError.unsupportedInput(model: name, shape: [])
        }
        let input = try model.input(at: 0)
        guard input.dimensions.count == 4, input.dimensions[0] == 1, input.dimensions[1] == 3 else {
            throw DetectorError.unsupportedInput(model: name, shape: input.dimensions)
        }
        inputHeight = input.dimensions[2]
        inputWidth = input.dimensions[3]

        let names = try ClassNames.find(forModel: modelURL, labelsFile: labelsFile)
        let outputShape = try model.output(at: 0).dimensions
        guard let layout = YOLOOutputLayout.recognise(shape: outputShape, knownClassCount: names?.names.count) else {
            throw DetectorError.unknownOutputLayout(model: name, shape: outputShape, classCount: names?.names.count)
        }
        self.layout = layout
        classNames = names ?? ClassNames(names: (0..<layout.classCount).map { "object \($0)" }, source: "none found")

        compiled = try Self.usable(modelURL) { () throws(InferenceError) in try core.compile(model, options: options) }
        request = try compiled.makeRequest()
    }

    /// OpenVINO's own words for a damaged model ("Incorrect weights in bin file!.") become one
    /// sentence about the file; a missing file or an unavailable device keep their own.
    static func usable<T>(_ model: URL, _ body: () throws(InferenceError) -> T) throws -> T {
        do { return try body() } catch {
            switch error {
            case .modelFileMissing, .deviceUnavailable: throw error
            default: throw ModelFileError.unusable(path: model.path)
            }
        }
    }

    /// True when the model came with no class names (no metadata.yaml, labels file or names
    /// beside it): objects are then only numbered, which the user should hear once.
    public var hasClassNames: Bool { classNames.source != "none found" }

    /// The precision OpenVINO actually compiled with (it may differ from the hint on some devices).
    public var compiledPrecision: String? { compiled.property("INFERENCE_PRECISION_HINT") }

    /// Cancels a running `detect` from another thread (the watchdog's way out of a hung inference).
    public func cancel() { request.cancel() }

    public func detect(_ image: RGBImage, settings: DetectorSettings = DetectorSettings()) throws -> DetectionResult {
        guard !image.isEmpty else { throw DetectorError.emptyImage(source: "given") }
        let clock = ContinuousClock()
        let start = clock.now

        let letterbox = Letterbox(sourceWidth: image.width, sourceHeight: image.height,
                                  targetWidth: inputWidth, targetHeight: inputHeight)
        try request.withInput { letterbox.fill($0, from: image) }
        let preprocessed = clock.now

        try request.infer()
        let inferred = clock.now

        let detections = try request.withOutput(at: 0) { _, output in
            let candidates = layout.candidates(from: output, threshold: settings.confidenceThreshold,
                                               multiLabel: settings.multiLabel)
            return nonMaximumSuppression(candidates, iouThreshold: settings.iouThreshold, classAware: true,
                                         maximumCount: settings.maximumDetections)
                .map { candidate in
                    Detection(classIndex: candidate.classIndex, label: classNames[candidate.classIndex],
                              confidence: candidate.score, box: letterbox.boxInSource(candidate.box))
                }
        }
        let finished = clock.now
        return DetectionResult(
            detections: detections,
            timings: DetectionTimings(preprocessMilliseconds: (preprocessed - start).milliseconds,
                                      inferenceMilliseconds: (inferred - preprocessed).milliseconds,
                                      postprocessMilliseconds: (finished - inferred).milliseconds))
    }

    /// Inference alone on whatever the input tensor holds: the floor a pipeline is measured against.
    public func rawInference() throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try request.infer()
        return (clock.now - start).milliseconds
    }
}

extension Duration {
    /// The duration in milliseconds, as a Double.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
