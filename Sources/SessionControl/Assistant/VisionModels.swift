import AssistCore
import Foundation
import Guidance
import Inference
import LiveGuidance
import Perception

/// The detector (and depth model) of a live session: found and loaded once at start, given back
/// in after-use and loaded again after, and the scene analyser made from them for what the
/// session needs now.
public final class VisionModels: @unchecked Sendable {
    private let detectorChoice: DetectorChoice
    private let depthChoice: DepthModelChoice
    private var core: InferenceCore?
    private var detector: ObjectDetector?
    private var depthEstimator: DepthEstimator?
    public let classNames: [String]

    /// A live input has one frame size at a time: the start-up shape is dropped when the first
    /// frame's is compiled, and a camera or stream of another size compiles its own in place of
    /// the last (each compiled shape of YOLO11n holds about 56 MB).
    static let compiledShapes = 1

    /// Throws the model's error (missing, damaged, not a model): a start-up failure of kind `.model`.
    public init(detector: DetectorChoice, depth: DepthModelChoice, warn: (String) -> Void) throws {
        detectorChoice = detector
        depthChoice = depth
        let core = try InferenceCore()
        let loaded = try detector.makeDetector(core: core, shapeCacheCapacity: Self.compiledShapes, warn: warn)
        self.core = core
        self.detector = loaded
        depthEstimator = try depth.makeEstimator(core: core, options: detector.inferenceOptions)
        classNames = loaded.classNames.names
    }

    public func analyzer(for requirements: AnalyzerRequirements, language: String) throws -> SceneAnalyzer {
        let core = try self.core ?? InferenceCore()
        self.core = core
        let detector = try self.detector ?? detectorChoice.makeDetector(core: core, shapeCacheCapacity: Self.compiledShapes,
                                                                        warn: { _ in })
        self.detector = detector
        if requirements.depthModel && depthEstimator == nil {
            depthEstimator = try depthChoice.makeEstimator(core: core, options: detectorChoice.inferenceOptions)
        }
        return try SceneAnalyzer(detector: detector, depthEstimator: requirements.depthModel ? depthEstimator : nil,
                                 locator: try ObjectLocator(camera: requirements.camera),
                                 describer: SceneDescriber(language: language, settings: requirements.description),
                                 iouThreshold: requirements.iouThreshold, ignoredCategories: requirements.ignoredCategories)
    }

    /// Gives back camera and model memory (after-use); the next `analyzer` loads them again.
    public func release() {
        detector = nil
        depthEstimator = nil
        core = nil
    }
}
