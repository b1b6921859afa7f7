import AssistCore
import Foundation
import Inference

/// Which detector to run and how (the `--model`, `--labels`, `--device`, `--threads`,
/// `--precision`, `--input-shape` and `--no-model-cache` options): shared by every command
/// that detects, and by an embedder that loads the same model the same way.
public struct DetectorChoice: Sendable, Equatable {
    /// nil: the installed default (`ModelLocator`).
    public var modelPath: String?
    /// Class names, one per line, for exports without names in their metadata.
    public var labelsPath: String?
    public var device: InferenceDevice
    /// 0 lets OpenVINO use every core.
    public var threads: Int
    /// `auto` runs bf16 only where `PrecisionRule` allows it for this model on this CPU.
    public var precision: PrecisionRequest
    public var inputShape: DetectorInputShape
    /// OpenVINO's compiled-model cache (in ~/.cache/assistivekit/openvino).
    public var usesModelCache: Bool

    public init(modelPath: String? = nil, labelsPath: String? = nil, device: InferenceDevice = .cpu, threads: Int = 0,
                precision: PrecisionRequest = .auto, inputShape: DetectorInputShape = .default, usesModelCache: Bool = true) {
        self.modelPath = modelPath
        self.labelsPath = labelsPath
        self.device = device
        self.threads = threads
        self.precision = precision
        self.inputShape = inputShape
        self.usesModelCache = usesModelCache
    }

    /// The options other models loaded beside the detector (depth) use: `auto` is f32 for them,
    /// as their bf16 accuracy was never checked.
    public var inferenceOptions: InferenceOptions {
        var options = InferenceOptions(device: device, threadCount: threads, precision: precision.fixed ?? .f32)
        if !usesModelCache { options.cacheDirectory = nil }
        return options
    }

    /// The precision the detector model at `model` runs in here at `inputShape` (this choice's
    /// own when nil), and why.
    public func precisionDecision(forModel model: URL, inputShape: DetectorInputShape? = nil, cpu: CPUCapabilities = .current(),
                                  checks: PrecisionCheckStore = PrecisionCheckStore()) -> PrecisionDecision {
        let shape = (inputShape ?? self.inputShape).rawValue
        return PrecisionRule.decide(precision, device: device, cpu: cpu, openVINOVersion: InferenceCore.version()) {
            ModelChecksums.contentDigest(of: model).flatMap { checks.record(modelSHA256: $0, cpu: cpu, inputShape: shape) }
        }
    }

    /// The square 640×640 detector a benchmark compares `detector` with, in `detector`'s own
    /// precision so that the ratio compares shapes only; nil when `detector` is square already.
    public func squareCompanion(of detector: ObjectDetector, core: InferenceCore, warn: (String) -> Void) throws -> ObjectDetector? {
        guard detector.inputShape != .square else { return nil }
        var choice = self
        choice.precision = PrecisionRequest(rawValue: detector.options.precision.rawValue) ?? .f32
        return try choice.makeDetector(core: core, inputShape: .square, warn: warn)
    }

    public func modelURL() throws -> URL {
        if let modelPath { return URL(fileURLWithPath: modelPath) }
        return try ModelLocator().defaultDetector()
    }

    /// `inputShape` overrides the chosen one (the bench runs both); `shapeCacheCapacity` is how
    /// many input shapes stay compiled (a dataset of many aspects needs more than a camera).
    /// `warn` is told once when the model has no class names. `cpu` and `precisionChecks` are
    /// what `auto` precision is decided from (tests give their own).
    public func makeDetector(core: InferenceCore, inputShape: DetectorInputShape? = nil, shapeCacheCapacity: Int = 4,
                             cpu: CPUCapabilities = .current(), precisionChecks: PrecisionCheckStore = PrecisionCheckStore(),
                             warn: (String) -> Void) throws -> ObjectDetector {
        let model = try modelURL()
        var decision = precisionDecision(forModel: model, inputShape: inputShape ?? self.inputShape, cpu: cpu, checks: precisionChecks)
        var options = inferenceOptions
        options.precision = decision.precision
        let detector = try ObjectDetector(modelURL: model, labelsFile: labelsPath.map { URL(fileURLWithPath: $0) },
                                          options: options, inputShape: inputShape ?? self.inputShape,
                                          shapeCacheCapacity: shapeCacheCapacity, core: core)
        decision.compiledAs = detector.compiledPrecision
        detector.precisionDecision = decision
        if !detector.hasClassNames {
            warn("The model \(detector.modelURL.lastPathComponent) has no class names (no metadata.yaml or labels file beside it, and none named), so objects are only numbered.")
        }
        return detector
    }
}

/// A learned monocular depth model, when one is chosen (`--depth-model` and its kind and input).
public struct DepthModelChoice: Sendable, Equatable {
    public var modelPath: String?
    public var outputKind: DepthEstimator.OutputKind
    public var normalization: DepthEstimator.InputNormalization

    public init(modelPath: String? = nil, outputKind: DepthEstimator.OutputKind = .metric,
                normalization: DepthEstimator.InputNormalization = .imageNet) {
        self.modelPath = modelPath
        self.outputKind = outputKind
        self.normalization = normalization
    }

    public func makeEstimator(core: InferenceCore, options: InferenceOptions) throws -> DepthEstimator? {
        guard let modelPath else { return nil }
        return try DepthEstimator(modelURL: URL(fileURLWithPath: modelPath), outputKind: outputKind,
                                  normalization: normalization, options: options, core: core)
    }
}
