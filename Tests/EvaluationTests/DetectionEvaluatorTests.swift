import Foundation
import TestSupport
import Testing
@testable import Evaluation
import Perception

@Suite("Evaluating a detector over a dataset")
struct DetectionEvaluatorTests {
    /// A stand-in detector that reports each image's labels back as detections.
    struct LabelEcho {
        let dataset: YOLODataset
        let width = 640, height = 480

        func detect(_ image: URL) throws -> (imageWidth: Int, imageHeight: Int, detections: [Detection]) {
            let labelled = dataset.images.first { $0.imageURL == image }!
            let objects = try labelled.labels().groundTruth(imageWidth: width, imageHeight: height)
            let detections = objects.enumerated().map { index, object in
                Detection(classIndex: object.classIndex, label: "c\(object.classIndex)",
                          confidence: 0.5 + Float(index % 7) / 20, box: object.box)
            }
            return (width, height, detections)
        }
    }

    struct UnreadableImage: Error {}

    @Test("a detector that finds every coco128 object exactly scores 0.995 over 128 images and 929 instances")
    func perfectDetectorOnCoco128() throws {
        let dataset = try YOLODataset(at: SharedFiles.data("coco128"))
        let echo = LabelEcho(dataset: dataset)
        var progress: [Int] = []
        let report = DetectionEvaluator(dataset: dataset).run(detect: echo.detect) { done, total in
            #expect(total == 128)
            progress.append(done)
        }
        #expect(progress == Array(1...128))
        #expect(report.accuracy.imageCount == 128)
        #expect(report.accuracy.instanceCount == 929)
        #expect(report.accuracy.classes.count == 71)
        #expect(abs(report.accuracy.meanAveragePrecision50to95 - 0.995) < 1e-12)
        #expect(report.skippedImages.isEmpty)
        #expect(report.imagesWithoutLabelFile == 2)
        #expect(report.labelFilesWithoutImage.count == 2)
    }

    @Test("an image the detector cannot read is skipped, listed with its reason, and the run goes on")
    func unreadableImageIsSkipped() throws {
        let dataset = try YOLODataset(at: SharedFiles.data("coco128"))
        let echo = LabelEcho(dataset: dataset)
        let broken = dataset.images[3].imageURL
        let report = DetectionEvaluator(dataset: dataset).run { image in
            if image == broken { throw UnreadableImage() }
            return try echo.detect(image)
        }
        #expect(report.accuracy.imageCount == 127)
        #expect(report.skippedImages.map(\.image) == [broken.path])
        #expect(report.skippedImages[0].reason.contains("UnreadableImage"))
        let brokenObjects = try dataset.images[3].labels().labels.count
        #expect(report.accuracy.instanceCount == 929 - brokenObjects)
    }

    @Test("a malformed label file skips its image with the file and line in the reason")
    func malformedLabelFileIsSkipped() throws {
        let root = try TemporaryFolder.make("evaluation-tests")
        defer { try? FileManager.default.removeItem(at: root) }
        let images = root.appendingPathComponent("images"), labels = root.appendingPathComponent("labels")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: labels, withIntermediateDirectories: true)
        for name in ["good", "bad"] { try Data().write(to: images.appendingPathComponent("\(name).jpg")) }
        try Data("0 0.5 0.5 0.5 0.5\n".utf8).write(to: labels.appendingPathComponent("good.txt"))
        try Data("0 0.5 0.5 0.5 0.5\n0 0.5 0.5\n".utf8).write(to: labels.appendingPathComponent("bad.txt"))
        let dataset = try YOLODataset(at: root)
        var detectorCalls = 0
        let report = DetectionEvaluator(dataset: dataset, classNames: ["person"]).run { _ in
            detectorCalls += 1
            return (100, 100, [Detection(classIndex: 0, label: "person", confidence: 0.9, box: BoundingBox(x0: 25, y0: 25, x1: 75, y1: 75))])
        }
        #expect(detectorCalls == 1)
        #expect(report.skippedImages.count == 1)
        #expect(report.skippedImages[0].reason.contains("Line 2 of the label file"))
        #expect(report.skippedImages[0].reason.contains("bad.txt"))
        #expect(report.accuracy.imageCount == 1)
        #expect(report.accuracy.classes.map(\.name) == ["person"])
        #expect(report.accuracy.meanAveragePrecision50 == 0.995)
    }

    @Test("detections reaching outside the image are clipped before matching")
    func detectionsAreClipped() throws {
        let root = try TemporaryFolder.make("evaluation-tests")
        defer { try? FileManager.default.removeItem(at: root) }
        let images = root.appendingPathComponent("images"), labels = root.appendingPathComponent("labels")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: labels, withIntermediateDirectories: true)
        try Data().write(to: images.appendingPathComponent("edge.jpg"))
        // An object filling the left half of a 200×100 image.
        try Data("0 0.25 0.5 0.5 1.0\n".utf8).write(to: labels.appendingPathComponent("edge.txt"))
        let dataset = try YOLODataset(at: root)
        // Unclipped, this box has IoU 0.5 with the object; clipped to the image it matches exactly.
        let report = DetectionEvaluator(dataset: dataset).run { _ in
            (200, 100, [Detection(classIndex: 0, label: "person", confidence: 0.9, box: BoundingBox(x0: -100, y0: 0, x1: 100, y1: 100))])
        }
        #expect(abs(report.accuracy.meanAveragePrecision50to95 - 0.995) < 1e-12)
    }

    @Test("the table has yolo val's columns: an all row, then one row per class")
    func table() {
        var map = MeanAveragePrecision()
        map.add(detections: [detection(0, 0.9, 0, 0, 10, 10)], groundTruth: [object(0, 0, 0, 10, 10), object(1, 5, 5, 9, 9)])
        let lines = map.accuracy(classNames: ["person"]).table().split(separator: "\n").map(String.init)
        #expect(lines == [
            "                 Class     Images  Instances      Box(P          R      mAP50  mAP50-95)",
            "                   all          1          2        0.5        0.5      0.497      0.497",
            "                person          1          1          1          1      0.995      0.995",
            "                     1          1          1          0          0          0          0",
        ])
    }

    @Test("the report survives a JSON round trip for --json")
    func jsonRoundTrip() throws {
        var map = MeanAveragePrecision()
        map.add(detections: [detection(0, 0.9, 0, 0, 10, 10)], groundTruth: [object(0, 0, 0, 10, 10), object(1, 5, 5, 9, 9)])
        let report = DetectionEvaluationReport(datasetFolder: "/d/images", accuracy: map.accuracy(classNames: ["person"]),
                                               skippedImages: [SkippedImage(image: "/d/images/x.jpg", reason: "Unreadable.")],
                                               imagesWithoutLabelFile: 1, labelFilesWithoutImage: ["/d/labels/y.txt"], duplicateLabelsRemoved: 0)
        let data = try JSONEncoder().encode(report)
        #expect(try JSONDecoder().decode(DetectionEvaluationReport.self, from: data) == report)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"meanAveragePrecision50to95\""))
    }
}
