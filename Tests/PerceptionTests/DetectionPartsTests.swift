import AssistCore
import Foundation
import TestSupport
import Testing
@testable import Perception

@Suite("Letterbox, output layouts, NMS and class names")
struct DetectionPartsTests {
    @Test("a 810×1080 portrait fits 640×640 at scale 0.593, 480 wide, centred with 80 px grey each side")
    func letterboxPortrait() {
        let box = Letterbox(sourceWidth: 810, sourceHeight: 1080, targetWidth: 640, targetHeight: 640)
        #expect(box.scaledWidth == 480 && box.scaledHeight == 640)
        #expect(box.padLeft == 80 && box.padTop == 0)
        let mapped = box.boxInSource(BoundingBox(x0: 80, y0: 0, x1: 560, y1: 640))
        #expect(abs(mapped.x0) < 0.01 && abs(mapped.x1 - 810) < 0.01 && abs(mapped.y1 - 1080) < 0.01)
    }

    @Test("letterboxing writes grey padding and the picture's own colour, as planar RGB 0…1")
    func letterboxFill() {
        let image = RGBImage(width: 20, height: 10, filledWith: (255, 0, 51))
        let box = Letterbox(sourceWidth: 20, sourceHeight: 10, targetWidth: 8, targetHeight: 8)
        var tensor = [Float](repeating: -1, count: 3 * 64)
        tensor.withUnsafeMutableBufferPointer { box.fill($0, from: image) }
        #expect(box.scaledWidth == 8 && box.scaledHeight == 4 && box.padTop == 2)
        #expect(tensor[0] == Float(114) / 255)               // top-left is padding (red plane)
        #expect(tensor[3 * 8 + 3] == 1)                  // a picture pixel, red plane
        #expect(tensor[64 + 3 * 8 + 3] == 0)             // green plane
        #expect(abs(tensor[128 + 3 * 8 + 3] - 0.2) < 1e-6) // blue plane, 51/255
        #expect(!tensor.contains(-1))
    }

    @Test("output shapes are recognised as YOLO11/v8 or YOLOv5, and others refused")
    func layouts() {
        #expect(YOLOOutputLayout.recognise(shape: [1, 84, 8400], knownClassCount: 80)
                == .boxesThenScoresPerRow(classCount: 80, anchorCount: 8400))
        #expect(YOLOOutputLayout.recognise(shape: [1, 25200, 85], knownClassCount: 80)
                == .anchorRowsWithObjectness(classCount: 80, anchorCount: 25200))
        #expect(YOLOOutputLayout.recognise(shape: [1, 6, 2100], knownClassCount: nil)
                == .boxesThenScoresPerRow(classCount: 2, anchorCount: 2100))
        #expect(YOLOOutputLayout.recognise(shape: [1, 84, 8400], knownClassCount: 3) == nil)
        #expect(YOLOOutputLayout.recognise(shape: [1, 3, 8, 8], knownClassCount: nil) == nil)
        #expect(YOLOOutputLayout.recognise(shape: [1, 84], knownClassCount: nil) == nil)
    }

    @Test("YOLOv5 rows multiply objectness by the class score")
    func yolov5Scores() {
        // Two anchors, two classes: [cx, cy, w, h, objectness, class0, class1].
        let output: [Float] = [50, 50, 20, 20, 0.9, 0.1, 0.8,
                               10, 10, 4, 4, 0.3, 0.9, 0.1]
        let layout = YOLOOutputLayout.anchorRowsWithObjectness(classCount: 2, anchorCount: 2)
        let found = output.withUnsafeBufferPointer { layout.candidates(from: $0, threshold: 0.5, multiLabel: false) }
        #expect(found.count == 1)
        #expect(found.first?.classIndex == 1 && abs((found.first?.score ?? 0) - 0.72) < 1e-6)
        #expect(found.first?.box == BoundingBox(x0: 40, y0: 40, x1: 60, y1: 60))
    }

    @Test("multi-label keeps every class above the threshold for one anchor")
    func multiLabel() {
        // YOLO11 layout, one anchor, two classes both above 0.3.
        let output: [Float] = [10, 10, 4, 4, 0.5, 0.4]
        let layout = YOLOOutputLayout.boxesThenScoresPerRow(classCount: 2, anchorCount: 1)
        let single = output.withUnsafeBufferPointer { layout.candidates(from: $0, threshold: 0.3, multiLabel: false) }
        let multi = output.withUnsafeBufferPointer { layout.candidates(from: $0, threshold: 0.3, multiLabel: true) }
        #expect(single.count == 1 && multi.count == 2)
    }

    @Test("NMS keeps the best of overlapping boxes of one class, and overlapping boxes of other classes")
    func suppression() {
        let a = Candidate(box: BoundingBox(x0: 0, y0: 0, x1: 10, y1: 10), score: 0.9, classIndex: 0)
        let b = Candidate(box: BoundingBox(x0: 1, y0: 0, x1: 11, y1: 10), score: 0.8, classIndex: 0)
        let c = Candidate(box: BoundingBox(x0: 1, y0: 0, x1: 11, y1: 10), score: 0.7, classIndex: 1)
        let d = Candidate(box: BoundingBox(x0: 50, y0: 50, x1: 60, y1: 60), score: 0.6, classIndex: 0)
        let kept = nonMaximumSuppression([d, c, b, a], iouThreshold: 0.45, classAware: true, maximumCount: 10)
        #expect(kept.map(\.score) == [0.9, 0.7, 0.6])
        let capped = nonMaximumSuppression([d, c, b, a], iouThreshold: 0.45, classAware: true, maximumCount: 2)
        #expect(capped.count == 2)
    }

    @Test("class names come from metadata.yaml (with CRLF lines), ONNX metadata, or a labels file")
    func classNames() throws {
        let yaml = "task: detect\r\nnames:\r\n  0: person\r\n  1: 'traffic light'\r\nargs:\r\n  batch: 1\r\n"
        #expect(ClassNames.parseUltralyticsYAML(yaml) == ["person", "traffic light"])
        #expect(ClassNames.parsePythonDictionary("{0: 'person', 1: \"stop sign\"}") == ["person", "stop sign"])
        #expect(ClassNames.parsePythonDictionary("not a dict") == nil)
        let ir = try #require(try ClassNames.find(forModel: SharedFiles.irModel))
        #expect(ir.names.count == 80 && ir.names[5] == "bus" && ir.names[9] == "traffic light")
        let onnx = try #require(try ClassNames.find(forModel: SharedFiles.onnxModel))
        #expect(onnx.names == ir.names)

        let folder = try TemporaryFolder.make("perception-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let labels = folder.appendingPathComponent("labels.txt")
        try Data("door\nstairs\n\n".utf8).write(to: labels)
        #expect(try ClassNames.fromLabelsFile(labels).names == ["door", "stairs"])
        #expect(throws: DetectorError.self) { try ClassNames.fromLabelsFile(folder.appendingPathComponent("none.txt")) }
    }
}
