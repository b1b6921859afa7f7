import Foundation
import TestSupport
import Testing
@testable import Evaluation
import Perception

@Suite("Reading YOLO label files")
struct YOLOLabelFileTests {
    let file = URL(fileURLWithPath: "/data/labels/train/000042.txt")

    @Test("a label line becomes a pixel box in the image's size")
    func pixelBox() throws {
        let labels = try YOLOLabelFile(parsing: "45 0.5 0.25 0.2 0.1\n", file: file)
        #expect(labels.labels == [YOLOLabel(classIndex: 45, centerX: 0.5, centerY: 0.25, width: 0.2, height: 0.1)])
        let objects = labels.groundTruth(imageWidth: 640, imageHeight: 480)
        #expect(objects.count == 1)
        #expect(objects[0].classIndex == 45)
        #expect(abs(objects[0].box.x0 - 256) < 1e-3 && abs(objects[0].box.x1 - 384) < 1e-3)
        #expect(abs(objects[0].box.y0 - 96) < 1e-3 && abs(objects[0].box.y1 - 144) < 1e-3)
    }

    @Test("boxes reaching past the image edge are clipped to it, as Ultralytics' scale_boxes does")
    func clipping() throws {
        // coco128 has boxes like this one that end 5e-7 past the right edge.
        let labels = try YOLOLabelFile(parsing: "0 0.9 0.5 0.2000010 1.0\n", file: file)
        let box = labels.groundTruth(imageWidth: 640, imageHeight: 480)[0].box
        #expect(box.x1 == 640)
        #expect(box.y0 == 0)
        #expect(box.y1 == 480)
    }

    @Test("blank lines and surrounding spaces are ignored, tabs separate like spaces")
    func whitespace() throws {
        let labels = try YOLOLabelFile(parsing: "\n  1 0.5 0.5 0.1 0.1  \r\n\n2\t0.1\t0.2\t0.05\t0.05\n\n", file: file)
        #expect(labels.labels.map(\.classIndex) == [1, 2])
    }

    @Test("a line with the wrong number of values names the file and the line")
    func wrongFieldCount() {
        #expect(throws: LabelFileError(file: file, line: 2, problem: .wrongFieldCount(4))) {
            try YOLOLabelFile(parsing: "0 0.5 0.5 0.1 0.1\n0 0.5 0.5 0.1\n", file: file)
        }
        do {
            _ = try YOLOLabelFile(parsing: "0 0.5 0.5 0.1 0.1\n0 0.5 0.5 0.1\n", file: file)
        } catch {
            #expect(error.userMessage.contains("Line 2 of the label file /data/labels/train/000042.txt"))
            #expect(error.userMessage.hasSuffix("."))
        }
    }

    @Test("text, fractional or negative classes, and coordinates outside 0…1 are rejected with their line")
    func invalidValues() {
        #expect(throws: LabelFileError(file: file, line: 1, problem: .notANumber("abc"))) {
            try YOLOLabelFile(parsing: "0 0.5 abc 0.1 0.1", file: file)
        }
        #expect(throws: LabelFileError(file: file, line: 1, problem: .invalidClass("1.5"))) {
            try YOLOLabelFile(parsing: "1.5 0.5 0.5 0.1 0.1", file: file)
        }
        #expect(throws: LabelFileError(file: file, line: 1, problem: .invalidClass("-1"))) {
            try YOLOLabelFile(parsing: "-1 0.5 0.5 0.1 0.1", file: file)
        }
        #expect(throws: LabelFileError(file: file, line: 3, problem: .coordinateOutOfRange(1.5))) {
            try YOLOLabelFile(parsing: "0 0.5 0.5 0.1 0.1\n\n0 1.5 0.5 0.1 0.1", file: file)
        }
        #expect(throws: LabelFileError(file: file, line: 1, problem: .notANumber("nan"))) {
            try YOLOLabelFile(parsing: "0 nan 0.5 0.1 0.1", file: file)
        }
    }

    @Test("a class written as 3.0 is class 3, as NumPy reads it")
    func wholeNumberClass() throws {
        #expect(try YOLOLabelFile(parsing: "3.0 0.5 0.5 0.1 0.1", file: file).labels[0].classIndex == 3)
    }

    @Test("exactly repeated lines are dropped and the rest sorted, as np.unique(axis=0) leaves them")
    func duplicates() throws {
        let labels = try YOLOLabelFile(parsing: "5 0.5 0.5 0.1 0.1\n2 0.3 0.3 0.1 0.1\n5 0.5 0.5 0.1 0.1\n2 0.2 0.3 0.1 0.1\n", file: file)
        #expect(labels.duplicatesRemoved == 1)
        #expect(labels.labels.map(\.classIndex) == [2, 2, 5])
        #expect(labels.labels.map(\.centerX) == [0.2, 0.3, 0.5])
    }

    @Test("without duplicates the file's order is kept")
    func orderKept() throws {
        let labels = try YOLOLabelFile(parsing: "5 0.5 0.5 0.1 0.1\n2 0.3 0.3 0.1 0.1\n", file: file)
        #expect(labels.duplicatesRemoved == 0)
        #expect(labels.labels.map(\.classIndex) == [5, 2])
    }

    @Test("a polygon line becomes the box around its points")
    func polygon() throws {
        let labels = try YOLOLabelFile(parsing: "7 0.1 0.2 0.5 0.2 0.3 0.6", file: file)
        let label = try #require(labels.labels.first)
        #expect(label.classIndex == 7)
        #expect(abs(label.centerX - 0.3) < 1e-6 && abs(label.width - 0.4) < 1e-6)
        #expect(abs(label.centerY - 0.4) < 1e-6 && abs(label.height - 0.4) < 1e-6)
    }

    @Test("a missing label file is reported with its path")
    func missingFile() {
        let missing = URL(fileURLWithPath: "/nonexistent/labels/x.txt")
        do {
            _ = try YOLOLabelFile(contentsOf: missing)
            Issue.record("reading a missing file did not throw")
        } catch {
            #expect(error.file == missing)
            #expect(error.line == nil)
            #expect(error.userMessage == "The label file /nonexistent/labels/x.txt cannot be read: it does not exist.")
        }
    }

    @Test("coco128's 126 labelled images hold 929 boxes in 71 classes; with the 2 orphan files, 941")
    func coco128Labels() throws {
        let dataset = try YOLODataset(at: SharedFiles.data("coco128"))
        var boxes = 0
        var classes: Set<Int> = []
        var labelFiles = 0
        for image in dataset.images {
            let labels = try image.labels()
            if labels.url != nil { labelFiles += 1 }
            boxes += labels.labels.count
            classes.formUnion(labels.labels.map(\.classIndex))
            #expect(labels.duplicatesRemoved == 0)
        }
        #expect(labelFiles == 126)
        #expect(boxes == 929)
        #expect(classes.count == 71)
        let orphanBoxes = try dataset.labelFilesWithoutImage.reduce(0) { $0 + (try YOLOLabelFile(contentsOf: $1)).labels.count }
        #expect(boxes + orphanBoxes == 941)
    }
}
