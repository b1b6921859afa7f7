import AssistCore
import Foundation
import Perception

/// Milliseconds per stage of one description, for `--json` and the benchmarks.
public struct StageTimings: Sendable, Codable, Equatable {
    /// Filled in by whoever decoded the frame (decoding is not this type's job).
    public var decodeMilliseconds: Double = 0
    public var qualityCheckMilliseconds: Double = 0
    public var preprocessMilliseconds: Double = 0
    public var inferenceMilliseconds: Double = 0
    public var postprocessMilliseconds: Double = 0
    /// The plugged-in depth model, when there is one.
    public var depthModelMilliseconds: Double = 0
    public var distanceMilliseconds: Double = 0
    public var describeMilliseconds: Double = 0

    public init() {}

    /// Everything after decoding: what must stay within 20 % of raw inference.
    public var afterDecodeMilliseconds: Double {
        qualityCheckMilliseconds + preprocessMilliseconds + inferenceMilliseconds + postprocessMilliseconds
            + depthModelMilliseconds + distanceMilliseconds + describeMilliseconds
    }
    public var totalMilliseconds: Double { decodeMilliseconds + afterDecodeMilliseconds }
}

/// What one picture holds and what to say about it.
public struct SceneReport: Sendable, Encodable {
    public var source: String
    public var imageWidth: Int
    public var imageHeight: Int
    /// Judged only when nothing was detected, the one case where it changes what is said
    /// ("too dark" instead of "No object detected"); nil when objects were found.
    public var quality: ImageQualityVerdict?
    /// Every object above the confidence threshold, closest first (the spoken order).
    public var objects: [LocatedObject]
    public var sentences: [String]
    /// The objects the sentences announce (at most the maximum count; grouped ones each listed).
    public var announced: [LocatedObject]
    public var timings: StageTimings
    /// Where distances came from: "geometry", "depth image", "depth model".
    public var depthSource: String

    // `announced` repeats entries of `objects`; JSON readers get it from the sentences' order.
    private enum CodingKeys: String, CodingKey {
        case source, imageWidth, imageHeight, quality, objects, sentences, timings, depthSource
    }
}

/// Frame in, sentences out: detection, an optional learned depth model, direction and distance,
/// image quality, and the spoken description. The library entry point of the vision assistant.
///
/// Owns a detector (one inference request), so one analyzer serves one thread at a time.
public final class SceneAnalyzer {
    public let detector: ObjectDetector
    public let depthEstimator: DepthEstimator?
    public let locator: ObjectLocator
    public let describer: SceneDescriber
    public let qualityCheck: ImageQualityCheck
    public let detectorSettings: DetectorSettings
    /// Categories the user asked never to hear about ("ignore chairs").
    public let ignoredCategories: Set<String>
    /// A still picture's doubtful detections confirmed by a second look (nil: none; a live
    /// session confirms on the next frames instead).
    public let secondLook: SecondLook?

    public init(detector: ObjectDetector, depthEstimator: DepthEstimator? = nil, locator: ObjectLocator,
                describer: SceneDescriber, qualityCheck: ImageQualityCheck = .standard,
                iouThreshold: Float = 0.45, ignoredCategories: Set<String> = [], secondLook: SecondLook? = nil) throws {
        self.ignoredCategories = ignoredCategories
        self.detector = detector
        self.depthEstimator = depthEstimator
        self.locator = locator
        self.qualityCheck = qualityCheck
        self.secondLook = secondLook
        // The detector drops what the description would never mention anyway.
        detectorSettings = try DetectorSettings(confidenceThreshold: describer.settings.minimumConfidence,
                                                iouThreshold: iouThreshold).validated()
        // What a second look confirmed is said and counted whatever its own confidence (as a face
        // is, once the face detector says so): the detector's settings above hold the threshold.
        self.describer = secondLook == nil ? describer
            : SceneDescriber(phrasebook: describer.phrasebook, settings: describer.settings.mentioningEveryConfidence)
    }

    public func analyze(_ frame: Frame) throws -> SceneReport {
        guard !frame.image.isEmpty else { throw DetectorError.emptyImage(source: frame.sourceName) }
        let clock = ContinuousClock()
        var timings = StageTimings()

        var start = clock.now
        var detection = try secondLook.map { try $0.detect(frame.image, with: detector, settings: detectorSettings) }
            ?? detector.detect(frame.image, settings: detectorSettings)
        if !ignoredCategories.isEmpty {
            detection.detections.removeAll { ignoredCategories.contains($0.label) }
        }
        timings.preprocessMilliseconds = detection.timings.preprocessMilliseconds
        timings.inferenceMilliseconds = detection.timings.inferenceMilliseconds
        timings.postprocessMilliseconds = detection.timings.postprocessMilliseconds

        var depthFrame = frame
        var depthSource = frame.depth == nil ? "geometry" : "depth image"
        if frame.depth == nil, let depthEstimator {
            start = clock.now
            let estimated = try depthEstimator.estimate(frame.image)
            switch depthEstimator.outputKind {
            case .metric:
                depthFrame.depth = estimated
            case .relativeInverse:
                // Scale the model's relative depth by the distances geometry gives for the same objects.
                let geometric = try locator.locate(detection.detections, in: frame)
                let anchors = geometric.compactMap { object -> DepthScaleAlignment.Anchor? in
                    guard let meters = object.distance.meters else { return nil }
                    return .init(x: Int(object.detection.box.centerX), y: Int(object.detection.box.centerY), meters: meters)
                }
                depthFrame.depth = DepthScaleAlignment.metric(fromRelativeInverse: estimated, anchors: anchors)
            }
            timings.depthModelMilliseconds = (clock.now - start).milliseconds
            if depthFrame.depth != nil { depthSource = "depth model" }
        }

        start = clock.now
        let located = try locator.locate(detection.detections, in: depthFrame)
        timings.distanceMilliseconds = (clock.now - start).milliseconds

        start = clock.now
        let ordered = describer.orderedForSpeech(located)
        // A confidently seen object is worth saying even in a poor picture; the quality sentence
        // replaces "No object detected", never a real announcement, so quality is judged only then.
        var quality: ImageQualityVerdict?
        if ordered.isEmpty {
            let qualityStart = clock.now
            quality = qualityCheck.verdict(for: frame.image)
            timings.qualityCheckMilliseconds = (clock.now - qualityStart).milliseconds
        }
        let sentences = describer.sentences(for: located, imageQuality: quality ?? .ok)
        let announced = describer.mentions(of: located).flatMap(\.objects)
        timings.describeMilliseconds = (clock.now - start).milliseconds

        return SceneReport(source: frame.sourceName, imageWidth: frame.image.width, imageHeight: frame.image.height,
                           quality: quality, objects: ordered, sentences: sentences, announced: announced, timings: timings,
                           depthSource: depthSource)
    }
}
