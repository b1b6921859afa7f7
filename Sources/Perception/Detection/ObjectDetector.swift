import AssistCore
import Foundation
import Inference

/// What the detector keeps and how many it returns.
public struct DetectorSettings: Sendable, Equatable {
    /// Objects scoring below this are never reported (`VisionLimits` says why 0.6 by default).
    public var confidenceThreshold: Float
    /// Boxes of one class overlapping more than this are the same object.
    public var iouThreshold: Float
    public var maximumDetections: Int
    /// Keep every class above the threshold per anchor (Ultralytics' validation does this).
    public var multiLabel: Bool

    public init(confidenceThreshold: Float = Float(VisionLimits.defaultConfidenceThreshold),
                iouThreshold: Float = Float(VisionLimits.defaultIoUThreshold),
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
/// With `.rectangular` input the model is reshaped to each frame's aspect (see
/// `DetectorInputSize.forFrame`) and compiled once per shape; the few shapes in use are kept
/// compiled, the least recently used dropped beyond `shapeCacheCapacity`. A shape is dropped
/// before the next is compiled, so no more than `shapeCacheCapacity` compiled models (about 56 MB
/// each for YOLO11n) are ever resident: a live session, which sees one frame size at a time,
/// keeps one.
///
/// Owns one inference request per shape and uses one at a time, so one detector serves one
/// thread at a time (`cancel` may come from another).
public final class ObjectDetector {
    public let modelURL: URL
    public let classNames: ClassNames
    /// The output layout at the model's own input size.
    public let layout: YOLOOutputLayout
    /// The model's own input size, as exported.
    public let inputWidth: Int
    public let inputHeight: Int
    public let options: InferenceOptions
    public let inputShape: DetectorInputShape
    public let shapeCacheCapacity: Int

    /// One compiled shape: its model, request and output layout (anchors change with the shape).
    private final class ShapedModel {
        let size: DetectorInputSize
        let compiled: CompiledModel
        let request: InferenceRequest
        let layout: YOLOOutputLayout
        private let resident: ResidentCount
        init(size: DetectorInputSize, compiled: CompiledModel, request: InferenceRequest, layout: YOLOOutputLayout,
             resident: ResidentCount) {
            self.size = size
            self.compiled = compiled
            self.request = request
            self.layout = layout
            self.resident = resident
            resident.change(by: 1)
        }
        deinit { resident.change(by: -1) }
    }

    /// How many compiled shapes are alive (not merely listed in the cache), and the most at once.
    private final class ResidentCount: @unchecked Sendable {
        private let lock = NSLock()
        private var now = 0
        private var most = 0
        func change(by delta: Int) {
            lock.withLock {
                now += delta
                most = max(most, now)
            }
        }
        var peak: Int { lock.withLock { most } }
    }

    private let resident = ResidentCount()

    private let core: InferenceCore
    /// Most recently used last.
    private var shapes: [ShapedModel] = []
    /// The shape of the last detection, which `cancel` and `rawInference` act on; nil while the
    /// shape it was has been dropped and the next is not compiled yet (or failed to compile).
    private var current: ShapedModel?
    /// Why this model cannot run at other sizes, once found: from then on every frame runs at the
    /// model's own size (the square path, always correct, only slower). Commands print it.
    public private(set) var resizeFailure: DetectorError?
    /// Guards `current` against `cancel` from the watchdog's thread.
    private let currentLock = NSLock()

    public init(modelURL: URL, labelsFile: URL? = nil, options: InferenceOptions = InferenceOptions(),
                inputShape: DetectorInputShape = .default, shapeCacheCapacity: Int = 4,
                core: InferenceCore? = nil) throws {
        self.modelURL = modelURL
        self.options = options
        self.inputShape = inputShape
        self.shapeCacheCapacity = max(1, shapeCacheCapacity)
        let core = try core ?? InferenceCore()
        self.core = core
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

        // The model's own shape is compiled now, so a model or device problem shows at start-up.
        let compiled = try Self.usable(modelURL) { () throws(InferenceError) in try core.compile(model, options: options) }
        let native = ShapedModel(size: DetectorInputSize(width: inputWidth, height: inputHeight), compiled: compiled,
                                 request: try compiled.makeRequest(), layout: layout, resident: resident)
        shapes = [native]
        current = native
    }

    /// OpenVINO's own words for a damaged model ("Incorrect weights in bin file!.") become one
    /// sentence about the file; a missing file or an unavailable device keep their own.
    static func usable<T>(_ model: URL, _ body: () throws(InferenceError) -> T) throws -> T {
        do { return try body() } catch {
            switch error {
            // The process ending is not the model's fault.
            case .modelFileMissing, .deviceUnavailable, .processEnding: throw error
            default: throw ModelFileError.unusable(path: model.path)
            }
        }
    }

    /// True when the model came with no class names (no metadata.yaml, labels file or names
    /// beside it): objects are then only numbered, which the user should hear once.
    public var hasClassNames: Bool { classNames.source != "none found" }

    /// The model's own input size, as exported.
    public var modelInputSize: DetectorInputSize { DetectorInputSize(width: inputWidth, height: inputHeight) }

    /// The input size a `width`×`height` frame runs at with this detector's `inputShape`.
    public func inputSize(forFrameWidth width: Int, height: Int) -> DetectorInputSize {
        guard resizeFailure == nil else { return modelInputSize }
        return DetectorInputSize.forFrame(width: width, height: height, model: modelInputSize, shape: inputShape)
    }

    /// The input size of the last detection (the model's own before the first).
    public var lastInputSize: DetectorInputSize { withCurrent { $0?.size } ?? modelInputSize }

    /// The input sizes compiled now, least recently used first.
    public var compiledInputSizes: [DetectorInputSize] { shapes.map(\.size) }

    /// The most compiled shapes this detector held in memory at one moment since it was made
    /// (each is a compiled model and its buffers): never above `shapeCacheCapacity`.
    public var mostShapesResidentAtOnce: Int { resident.peak }

    /// Which precision runs and why (`PrecisionRule`), when a `DetectorChoice` made this detector.
    public internal(set) var precisionDecision: PrecisionDecision?

    /// The precision OpenVINO actually compiled with (it may differ from the hint on some devices).
    public var compiledPrecision: String? { withCurrent { $0?.compiled.property("INFERENCE_PRECISION_HINT") } }

    /// Cancels a running `detect` from another thread (the watchdog's way out of a hung inference).
    public func cancel() { withCurrent { $0?.request.cancel() } }

    /// Compiles the model for frames of this size now, unless it is already: the first frame of
    /// a new size then costs inference alone. (A live session times inference with its watchdog;
    /// compiling for a new shape takes seconds on a slow machine and is not a hang.)
    public func prepare(forFrameWidth width: Int, height: Int) throws {
        _ = try shaped(for: inputSize(forFrameWidth: width, height: height))
    }

    public func detect(_ image: RGBImage, settings: DetectorSettings = DetectorSettings()) throws -> DetectionResult {
        guard !image.isEmpty else { throw DetectorError.emptyImage(source: "given") }
        let shaped = try shaped(for: inputSize(forFrameWidth: image.width, height: image.height))
        let request = shaped.request
        let clock = ContinuousClock()
        let start = clock.now

        let letterbox = Letterbox(sourceWidth: image.width, sourceHeight: image.height,
                                  targetWidth: shaped.size.width, targetHeight: shaped.size.height)
        try request.withInput { letterbox.fill($0, from: image) }
        let preprocessed = clock.now

        try request.infer()
        let inferred = clock.now

        let detections = try request.withOutput(at: 0) { _, output in
            let candidates = shaped.layout.candidates(from: output, threshold: settings.confidenceThreshold,
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

    /// Inference alone on whatever the input tensor of the last detection's shape holds: the
    /// floor a pipeline is measured against.
    public func rawInference() throws -> Double {
        let request = try withCurrent { $0?.request } ?? shaped(for: modelInputSize).request
        let clock = ContinuousClock()
        let start = clock.now
        try request.infer()
        return (clock.now - start).milliseconds
    }

    /// The compiled model for `size`, compiling it (once) when it is new, and making it current.
    private func shaped(for size: DetectorInputSize) throws -> ShapedModel {
        if let index = shapes.firstIndex(where: { $0.size == size }) {
            let found = shapes.remove(at: index)
            shapes.append(found)
            currentLock.withLock { current = found }
            return found
        }
        let name = modelURL.lastPathComponent
        let model: InferenceModel
        do {
            model = try readModel(resizedTo: size)
        } catch let failure as DetectorError {
            guard case .cannotResize = failure, size != modelInputSize else { throw failure }
            resizeFailure = failure
            return try shaped(for: modelInputSize)
        }
        let outputShape = try model.output(at: 0).dimensions
        guard let layout = YOLOOutputLayout.recognise(shape: outputShape, knownClassCount: classNames.names.count),
              layout.classCount == self.layout.classCount else {
            throw DetectorError.unknownOutputLayout(model: name, shape: outputShape, classCount: classNames.names.count)
        }
        // The least recently used shapes go before the new one is compiled, not after: compiled
        // side by side they would be resident together (the live session's peak memory). The
        // last reference to a dropped shape may be `current`; `detect` holds its own only while
        // it runs, on this same thread.
        if shapes.count >= shapeCacheCapacity {
            let dropped = shapes.prefix(shapes.count - shapeCacheCapacity + 1).map(ObjectIdentifier.init)
            shapes.removeFirst(dropped.count)
            currentLock.withLock {
                if let current, dropped.contains(ObjectIdentifier(current)) { self.current = nil }
            }
        }
        let compiled = try core.compile(model, options: options)
        let made = ShapedModel(size: size, compiled: compiled, request: try compiled.makeRequest(), layout: layout,
                               resident: resident)
        shapes.append(made)
        currentLock.withLock { current = made }
        return made
    }

    /// The model read afresh and given input `size`: through OpenVINO's reshape where the
    /// export allows it, else (a static Ultralytics IR, whose graph holds sizes as constants)
    /// through `YOLOStaticShapeRewrite`.
    private func readModel(resizedTo size: DetectorInputSize) throws -> InferenceModel {
        let dimensions = [1, 3, size.height, size.width]
        let name = modelURL.lastPathComponent
        let model = try core.readModel(at: modelURL)
        let reshapeFailure: InferenceError
        do throws(InferenceError) {
            try model.reshapeInput(to: dimensions)
            return model
        } catch {
            reshapeFailure = error
        }
        guard modelURL.pathExtension.lowercased() == "xml" else {
            throw DetectorError.cannotResize(model: name, size: size.description,
                                             reason: "OpenVINO could not reshape it (\(reshapeFailure.userMessage))")
        }
        let weightsURL = modelURL.deletingPathExtension().appendingPathExtension("bin")
        guard let text = try? String(contentsOf: modelURL, encoding: .utf8),
              let weights = try? Data(contentsOf: weightsURL) else {
            throw DetectorError.cannotResize(model: name, size: size.description, reason: "its files could not be read again")
        }
        let rewrite = YOLOStaticShapeRewrite(oldWidth: inputWidth, oldHeight: inputHeight,
                                             newWidth: size.width, newHeight: size.height)
        let rewritten: (irText: String, weights: [UInt8])
        do throws(YOLOStaticShapeRewrite.Failure) {
            rewritten = try rewrite.rewrite(irText: text, weights: [UInt8](weights))
        } catch {
            throw DetectorError.cannotResize(model: name, size: size.description, reason: error.reason)
        }
        let resized = try core.readModel(irText: rewritten.irText, weights: rewritten.weights, name: name)
        try resized.reshapeInput(to: dimensions)   // already that shape; confirms OpenVINO agrees
        return resized
    }

    private func withCurrent<R>(_ body: (ShapedModel?) throws -> R) rethrows -> R {
        try currentLock.withLock { try body(current) }
    }
}

extension Duration {
    /// The duration in milliseconds, as a Double.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
