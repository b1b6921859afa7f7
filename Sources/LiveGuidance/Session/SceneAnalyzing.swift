import AssistCore
import Foundation
import Guidance
import Perception

/// The analysis step of the live loop: a frame in, a scene report out. `SceneAnalyzer` is the real
/// one; tests put in analyzers that stall or throw, to check the watchdog and the degraded states.
///
/// `analyze` runs on the session's analysis thread; `cancel` is called from another thread when
/// the watchdog gives up on a frame.
public protocol SceneAnalyzing: AnyObject {
    func analyze(_ frame: Frame) throws -> SceneReport
    /// Does, before `analyze` of a frame this size, the one-off work that is not analysis
    /// (compiling the model for the size), so the watchdog times only the analysis.
    func prepare(for frame: Frame) throws
    /// Asks a running `analyze` to stop as soon as it can (an inference request is cancelled).
    func cancel()
    /// Whether a learned depth model is part of the analysis: when it fails, the session goes on
    /// with distances from geometry instead of stopping.
    var usesDepthModel: Bool { get }
    /// The detector's precision and why, said on the start-up line of `--json`; nil when the
    /// analyzer runs no OpenVINO detector (test doubles).
    var precision: PrecisionDecision? { get }
    /// Direction and distance of things found in `frame` by another detector (faces), with the
    /// same camera geometry as the analysis.
    func locate(_ detections: [Detection], in frame: Frame) throws -> [LocatedObject]
}

extension SceneAnalyzing {
    public func prepare(for frame: Frame) throws {}
    public var precision: PrecisionDecision? { nil }
    /// An analyzer without camera geometry (a test double) places nothing.
    public func locate(_ detections: [Detection], in frame: Frame) throws -> [LocatedObject] { [] }
}

extension SceneAnalyzer: SceneAnalyzing {
    public func prepare(for frame: Frame) throws {
        try detector.prepare(forFrameWidth: frame.image.width, height: frame.image.height)
    }

    public func cancel() { detector.cancel() }
    public func locate(_ detections: [Detection], in frame: Frame) throws -> [LocatedObject] { try locator.locate(detections, in: frame) }
    public var usesDepthModel: Bool { depthEstimator != nil }
    public var precision: PrecisionDecision? { detector.precisionDecision }
}

/// What the analyzer is built with; the session asks for a new analyzer when any of it changes
/// (a settings change, the depth model failing).
public struct AnalyzerRequirements: Sendable, Equatable {
    public var description: DescriptionSettings
    public var ignoredCategories: Set<String>
    /// False once the depth model failed in this run.
    public var depthModel: Bool
    /// Boxes overlapping more than this count as one object (the detector's suppression).
    public var iouThreshold: Float
    /// The camera the directions and distances are worked out for (its field of view, height, tilt).
    public var camera: CameraSettings

    public init(description: DescriptionSettings, ignoredCategories: Set<String> = [], depthModel: Bool = true,
                iouThreshold: Float = Float(VisionLimits.defaultIoUThreshold), camera: CameraSettings = .chestWorn) {
        self.description = description
        self.ignoredCategories = ignoredCategories
        self.depthModel = depthModel
        self.iouThreshold = iouThreshold
        self.camera = camera
    }
}

/// Where the session gets its analyzer, and gives the model back (after-use).
///
/// `make` is called at start-up, after a settings change and when the session comes back from
/// after-use; it should keep a loaded model and only rebuild what changed. `release` frees the
/// model (the next `make` loads it again).
public struct AnalyzerSupply {
    public var make: (AnalyzerRequirements) throws -> any SceneAnalyzing
    public var release: () -> Void

    public init(make: @escaping (AnalyzerRequirements) throws -> any SceneAnalyzing, release: @escaping () -> Void = {}) {
        self.make = make
        self.release = release
    }
}
