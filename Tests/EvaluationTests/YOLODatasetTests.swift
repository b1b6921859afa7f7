import Foundation
import TestSupport
import Testing
@testable import Evaluation

@Suite("Finding the images and labels of a YOLO dataset")
struct YOLODatasetTests {
    @Test("coco128 from its root: 128 images, 2 without a label file, 2 label files without an image")
    func coco128FromRoot() throws {
        let dataset = try YOLODataset(at: SharedFiles.data("coco128"))
        #expect(dataset.images.count == 128)
        #expect(dataset.imagesFolder.lastPathComponent == "images")
        #expect(dataset.imagesWithoutLabelFile == 2)
        #expect(dataset.images.filter { $0.labelURL == nil }.map(\.imageURL.lastPathComponent)
            == ["000000000250.jpg", "000000000508.jpg"])
        #expect(dataset.labelFilesWithoutImage.map(\.lastPathComponent) == ["000000000656.txt", "000000000659.txt"])
        #expect(dataset.images.map(\.imageURL.path) == dataset.images.map(\.imageURL.path).sorted())
        let first = try #require(dataset.images.first)
        #expect(first.labelURL?.path == SharedFiles.data("coco128").appendingPathComponent("labels/train2017/000000000009.txt").path)
    }

    @Test("coco128 from its images folder pairs the same images with the same labels")
    func coco128FromImagesFolder() throws {
        let fromRoot = try YOLODataset(at: SharedFiles.data("coco128"))
        let fromImages = try YOLODataset(at: SharedFiles.data("coco128").appendingPathComponent("images/train2017"))
        #expect(fromImages.images == fromRoot.images)
        #expect(fromImages.labelFilesWithoutImage == fromRoot.labelFilesWithoutImage)
    }

    @Test("an image without a label file has no objects")
    func missingLabelFileMeansNoObjects() throws {
        let dataset = try YOLODataset(at: SharedFiles.data("coco128"))
        let unlabelled = try #require(dataset.images.first { $0.imageURL.lastPathComponent == "000000000250.jpg" })
        #expect(try unlabelled.labels().labels.isEmpty)
    }

    @Test("the label path swaps the last images folder for labels and the extension for .txt")
    func labelPath() {
        let image = URL(fileURLWithPath: "/d/images/set/images/val/a.b.JPG")
        #expect(YOLODataset.labelURL(forImage: image)?.path == "/d/images/set/labels/val/a.b.txt")
        #expect(YOLODataset.labelURL(forImage: URL(fileURLWithPath: "/d/pictures/a.jpg")) == nil)
    }

    @Test("image extensions are matched in any case, other files are ignored, subfolders are searched")
    func imageSelection() throws {
        let root = try TemporaryFolder.make("evaluation-tests")
        defer { try? FileManager.default.removeItem(at: root) }
        let images = root.appendingPathComponent("images/val/nested")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        for name in ["a.PNG", "b.jpeg", "notes.txt", "c.gif"] {
            try Data().write(to: images.appendingPathComponent(name))
        }
        let dataset = try YOLODataset(at: root)
        #expect(dataset.images.map(\.imageURL.lastPathComponent) == ["a.PNG", "b.jpeg"])
        #expect(dataset.labelFilesWithoutImage.isEmpty)
    }

    @Test("a folder that does not exist, or holds no images, is a clear error")
    func badFolders() throws {
        #expect(throws: DatasetError.notAFolder(URL(fileURLWithPath: "/nonexistent/set"))) {
            try YOLODataset(at: URL(fileURLWithPath: "/nonexistent/set"))
        }
        let empty = try TemporaryFolder.make("evaluation-tests")
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(throws: DatasetError.noImages(empty.standardizedFileURL)) { try YOLODataset(at: empty) }
        #expect(DatasetError.noImages(empty).userMessage.contains(empty.path))
    }
}
