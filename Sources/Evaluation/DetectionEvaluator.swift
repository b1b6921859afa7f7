import AssistCore
import Foundation
import Perception

/// Runs a detector over a YOLO dataset and measures its accuracy as Ultralytics' `yolo val` does.
///
/// The detector is any function from an image file to its size and detections, so evaluation does
/// not depend on how detection is done (model, precision, NMS settings are the caller's choice).
public struct DetectionEvaluator: Sendable {
    /// What the evaluator needs from a detector: the decoded image's size in pixels and the
    /// detections in that image's pixels. Throwing skips the image.
    public typealias Detect = (URL) throws -> (imageWidth: Int, imageHeight: Int, detections: [Detection])

    public var dataset: YOLODataset
    /// Names for classes by index, for the per-class report; may be empty.
    public var classNames: [String]

    public init(dataset: YOLODataset, classNames: [String] = []) {
        self.dataset = dataset
        self.classNames = classNames
    }

    /// Evaluates every image in order. A label file that cannot be parsed, a detector error or an
    /// invalid image size skips that image (Ultralytics also leaves corrupt images out) and is
    /// listed in the report; the run goes on. `progress` is called after each image with the
    /// number of images done and the total.
    public func run(detect: Detect, progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }) -> DetectionEvaluationReport {
        var accumulator = MeanAveragePrecision()
        var skipped: [SkippedImage] = []
        var duplicatesRemoved = 0
        let total = dataset.images.count
        for (index, image) in dataset.images.enumerated() {
            defer { progress(index + 1, total) }
            do {
                let labels = try image.labels()
                let (width, height, detections) = try detect(image.imageURL)
                guard width > 0, height > 0 else {
                    throw EvaluationError.invalidImageSize(image.imageURL, width: width, height: height)
                }
                // Ultralytics clips detections to the image (`scale_boxes`); the labels are clipped
                // in `groundTruth(imageWidth:imageHeight:)`.
                let clipped = detections.map { detection in
                    var detection = detection
                    detection.box = detection.box.clipped(width: width, height: height)
                    return detection
                }
                accumulator.add(detections: clipped, groundTruth: labels.groundTruth(imageWidth: width, imageHeight: height))
                duplicatesRemoved += labels.duplicatesRemoved
            } catch {
                skipped.append(SkippedImage(image: image.imageURL.path, reason: userMessage(for: error)))
            }
        }
        return DetectionEvaluationReport(
            datasetFolder: dataset.imagesFolder.path,
            accuracy: accumulator.accuracy(classNames: classNames),
            skippedImages: skipped,
            imagesWithoutLabelFile: dataset.imagesWithoutLabelFile,
            labelFilesWithoutImage: dataset.labelFilesWithoutImage.map(\.path),
            duplicateLabelsRemoved: duplicatesRemoved)
    }
}

/// The outcome of evaluating a dataset: the accuracy and everything the user should know about
/// what was and was not counted. `Codable` for `--json`.
public struct DetectionEvaluationReport: Sendable, Equatable, Codable {
    /// The images folder that was evaluated.
    public var datasetFolder: String
    public var accuracy: DetectionAccuracy
    /// Images left out, each with the reason.
    public var skippedImages: [SkippedImage]
    /// Images without a label file, evaluated as showing no objects.
    public var imagesWithoutLabelFile: Int
    /// Label files that belong to no image; ignored.
    public var labelFilesWithoutImage: [String]
    /// Exactly repeated label lines dropped (Ultralytics drops them too).
    public var duplicateLabelsRemoved: Int

    public init(datasetFolder: String, accuracy: DetectionAccuracy, skippedImages: [SkippedImage], imagesWithoutLabelFile: Int,
                labelFilesWithoutImage: [String], duplicateLabelsRemoved: Int) {
        self.datasetFolder = datasetFolder
        self.accuracy = accuracy
        self.skippedImages = skippedImages
        self.imagesWithoutLabelFile = imagesWithoutLabelFile
        self.labelFilesWithoutImage = labelFilesWithoutImage
        self.duplicateLabelsRemoved = duplicateLabelsRemoved
    }
}

/// An image that was left out of the evaluation, and why (one sentence for the user).
public struct SkippedImage: Sendable, Equatable, Codable {
    public var image: String
    public var reason: String

    public init(image: String, reason: String) {
        self.image = image
        self.reason = reason
    }
}

/// Errors of an evaluation: one image the evaluator cannot use, or a run that cannot be made or kept.
public enum EvaluationError: UserFacingError, Equatable {
    case invalidImageSize(URL, width: Int, height: Int)
    /// The model file cannot be read to compute the digest a precision check is filed under.
    case modelUnidentifiable(path: String)
    /// Not one image of the dataset could be evaluated, so there is nothing to compare.
    case nothingEvaluated(folder: String)
    case checkNotSaved(folder: String, reason: String)
    /// A picture given for the distance evaluation has no measured depth beside it.
    case noMeasuredDepth(picture: String)
    /// No pictures were named and the shared RGB-D frames are not there.
    case noDepthFrames

    public var userMessage: String {
        switch self {
        case .invalidImageSize(let url, let width, let height):
            return "The image \(url.path) was reported as \(width)×\(height) pixels, which cannot hold labelled objects."
        case .modelUnidentifiable(let path):
            return "The model file \(path) could not be read to identify it."
        case .nothingEvaluated(let folder):
            return "No image of \(folder) could be evaluated, so precision was not checked."
        case .checkNotSaved(let folder, let reason):
            return "The precision check could not be saved in \(folder): \(reason)"
        case .noMeasuredDepth(let picture):
            return "The picture \(picture) has no NAME_depth_mm.pgm or .png beside it."
        case .noDepthFrames:
            return "No RGB-D frames were given and ../shared/data/depth was not found."
        }
    }
}

extension DetectionEvaluator {
    /// `assist eval detection`: evaluates the dataset at `folder` with the detector `makeDetector` opens
    /// (after the dataset, so a missing dataset is said first), progress on standard error, and prints the
    /// report: JSON, or the accuracy table, the summary line and each skipped image.
    public static func printEvaluation(datasetAt folder: URL, settings: DetectorSettings, requestedPrecision: String, json: Bool,
                                       makeDetector: () throws -> ObjectDetector) throws {
        let data = try YOLODataset(at: folder)
        let detector = try makeDetector()
        let evaluator = DetectionEvaluator(dataset: data, classNames: detector.classNames.names)
        let clock = ContinuousClock()
        let start = clock.now
        let report = evaluator.run(detector: detector, settings: settings) { done, total in
            FileHandle.standardError.write(Data("\r\(done)/\(total) images".utf8))
            if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
        }
        let seconds = (clock.now - start).milliseconds / 1000
        if json { return print(try JSONReport.text(report)) }
        print(report.accuracy.table())
        print(report.summaryLine(detector: detector, requestedPrecision: requestedPrecision, seconds: seconds))
        for skipped in report.skippedImages { print("skipped \(skipped.image): \(skipped.reason)") }
    }
}
