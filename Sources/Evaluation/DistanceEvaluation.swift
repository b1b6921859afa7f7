import AssistCore
import Foundation
import Media
import Perception

/// `assist eval distance`: objects detected in RGB-D pictures, their distance estimated from
/// geometry alone (object size, floor contact), compared with the median measured depth inside
/// each object's core.
public struct DistanceEvaluation {
    public let detector: ObjectDetector
    public let locator: ObjectLocator
    public let settings: DetectorSettings

    public init(detector: ObjectDetector, locator: ObjectLocator, settings: DetectorSettings) {
        self.detector = detector
        self.locator = locator
        self.settings = settings
    }

    /// One compared object, and the picture it is in.
    public struct Row: Encodable, Sendable {
        public var frame: String
        public var pair: DistanceAccuracy.Pair
    }

    /// Every compared object and the summary, as `--json` prints them.
    public struct Output: Encodable, Sendable {
        public var objects: [Row]
        public var summary: DistanceAccuracy.Report?
    }

    /// The frames in ../shared/data/depth registered to their colour image (TUM and SUN; NYU is not).
    public static func defaultFrames() -> [URL] {
        guard let folder = ModelLocator().sharedDataDirectory()?.appendingPathComponent("depth") else { return [] }
        return ["TUM_color.png", "SUN_color.jpg"].map { folder.appendingPathComponent($0) }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    public func run(_ frames: [URL]) throws -> Output {
        var rows: [Row] = []
        for url in frames {
            guard let depthFile = DepthImageFile.companion(forColorImage: url) else {
                throw EvaluationError.noMeasuredDepth(picture: url.lastPathComponent)
            }
            let image = try ImageFile(url).decode()
            let depth = try depthFile.decode()
            try depthFile.requireSameSize(depth, as: image)
            let detections = try detector.detect(image, settings: settings).detections
            // Geometry alone: the depth map is the reference, so it must not feed the estimate.
            let located = try locator.locate(detections, imageWidth: image.width, imageHeight: image.height, depth: nil)
            rows += DistanceAccuracy.pairs(located: located, depth: depth).map { Row(frame: url.lastPathComponent, pair: $0) }
        }
        return Output(objects: rows, summary: DistanceAccuracy.Report(pairs: rows.map(\.pair)))
    }
}

extension DistanceEvaluation.Output {
    /// The table printed without `--json`: one line per object, then the mean errors.
    public var table: String {
        func padded(_ text: String, _ width: Int) -> String { text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0) }
        var lines = ["\(padded("frame", 16)) \(padded("object", 14)) estimate   measured   error   method"]
        for row in objects {
            let p = row.pair
            lines.append([padded(row.frame, 16), padded(p.label, 14),
                          String(format: "%6.2f m   %6.2f m   %4.0f%%   ", p.estimatedMeters, p.measuredMeters, p.relativeError * 100)
                            + (p.method?.rawValue ?? "-")].joined(separator: " "))
        }
        if let summary {
            lines.append(String(format: "mean absolute error %.2f m, mean relative error %.0f%% over %d objects",
                                summary.meanAbsoluteErrorMeters, summary.meanRelativeError * 100, summary.count))
        } else {
            lines.append("No detected object had both a geometric estimate and measured depth.")
        }
        return lines.joined(separator: "\n")
    }
}

extension DetectionEvaluator {
    /// Runs `detector` on every picture of the dataset with `settings` (`assist eval detection`);
    /// `progress` is told every 16 pictures and at the end.
    public func run(detector: ObjectDetector, settings: DetectorSettings,
                    progress: (_ done: Int, _ total: Int) -> Void) -> DetectionEvaluationReport {
        run(detect: { url in
            let image = try ImageFile(url).decode()
            return (image.width, image.height, try detector.detect(image, settings: settings).detections)
        }, progress: { done, total in
            if done % 16 == 0 || done == total { progress(done, total) }
        })
    }
}

extension DetectionEvaluationReport {
    /// The summary line under the per-class table: both mAPs, the counts, the model and how it ran.
    public func summaryLine(detector: ObjectDetector, requestedPrecision: String, seconds: Double) -> String {
        String(format: "mAP50-95 %.4f  mAP50 %.4f  (%d images, %d instances; model %@, precision %@, %@ input: %@; %.1f s)",
               accuracy.meanAveragePrecision50to95, accuracy.meanAveragePrecision50,
               accuracy.imageCount, accuracy.instanceCount, detector.modelURL.lastPathComponent,
               detector.compiledPrecision ?? requestedPrecision, detector.inputShape.rawValue,
               detector.compiledInputSizes.map(\.description).sorted().joined(separator: ", "), seconds)
    }
}

extension DistanceEvaluation {
    /// `assist eval distance`: compares geometry with measured depth on `images` (default: the registered
    /// frames in ../shared/data/depth) and prints the table, or JSON.
    public static func printEvaluation(images: [String], camera: CameraChoice, confidence: Float, json: Bool,
                                       makeDetector: () throws -> ObjectDetector) throws {
        let frames = images.isEmpty ? defaultFrames() : images.map { URL(fileURLWithPath: $0) }
        guard !frames.isEmpty else {
            throw EvaluationError.noDepthFrames
        }
        let settings = try camera.settings()
        let evaluation = DistanceEvaluation(detector: try makeDetector(), locator: try ObjectLocator(camera: settings),
                                            settings: try DetectorSettings(confidenceThreshold: confidence).validated())
        let output = try evaluation.run(frames)
        if json { print(try JSONReport.text(output)) } else { print(output.table) }
    }
}
