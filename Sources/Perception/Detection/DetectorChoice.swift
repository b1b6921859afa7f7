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
    public var precision: InferencePrecision
    public var inputShape: DetectorInputShape
    /// OpenVINO's compiled-model cache (in ~/.cache/assistivekit/openvino).
    public var usesModelCache: Bool

    public init(modelPath: String? = nil, labelsPath: String? = nil, device: InferenceDevice = .cpu, threads: Int = 0,
                precision: InferencePrecision = .f32, inputShape: DetectorInputShape = .default, usesModelCache: Bool = true) {
        self.modelPath = modelPath
        self.labelsPath = labelsPath
        self.device = device
        self.threads = threads
        self.precision = precision
        self.inputShape = inputShape
        self.usesModelCache = usesModelCache
    }

    public var inferenceOptions: InferenceOptions {
        var options = InferenceOptions(device: device, threadCount: threads, precision: precision)
        if !usesModelCache { options.cacheDirectory = nil }
        return options
    }

    public func modelURL() throws -> URL {
        if let modelPath { return URL(fileURLWithPath: modelPath) }
        return try ModelLocator().defaultDetector()
    }

    /// `inputShape` overrides the chosen one (the bench runs both); `shapeCacheCapacity` is how
    /// many input shapes stay compiled (a dataset of many aspects needs more than a camera).
    /// `warn` is told once when the model has no class names.
    public func makeDetector(core: InferenceCore, inputShape: DetectorInputShape? = nil, shapeCacheCapacity: Int = 4,
                             warn: (String) -> Void) throws -> ObjectDetector {
        let detector = try ObjectDetector(modelURL: modelURL(), labelsFile: labelsPath.map { URL(fileURLWithPath: $0) },
                                          options: inferenceOptions, inputShape: inputShape ?? self.inputShape,
                                          shapeCacheCapacity: shapeCacheCapacity, core: core)
        if !detector.hasClassNames {
            warn("The model \(detector.modelURL.lastPathComponent) has no class names (no metadata.yaml or labels file beside it, and no --labels), so objects are only numbered.")
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
