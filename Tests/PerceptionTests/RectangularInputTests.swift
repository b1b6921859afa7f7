import AssistCore
import Foundation
import TestSupport
import Testing
@testable import Perception

@Suite("Rectangular detector input: the shape per frame, the minimal letterbox and boxes mapped back")
struct RectangularInputShapeTests {
    let model640 = DetectorInputSize(width: 640, height: 640)

    func size(_ width: Int, _ height: Int, model: DetectorInputSize? = nil,
              _ shape: DetectorInputShape = .rectangular) -> DetectorInputSize {
        DetectorInputSize.forFrame(width: width, height: height, model: model ?? model640, shape: shape)
    }

    @Test("4:3 frames run at 640×480, whatever their resolution")
    func fourByThree() {
        #expect(size(640, 480) == DetectorInputSize(width: 640, height: 480))
        #expect(size(1600, 1200) == DetectorInputSize(width: 640, height: 480))
        #expect(size(320, 240) == DetectorInputSize(width: 640, height: 480))
    }

    @Test("16:9 frames run at 640×384: 360 rows rounded up to the stride")
    func sixteenByNine() {
        #expect(size(1280, 720) == DetectorInputSize(width: 640, height: 384))
        #expect(size(1920, 1080) == DetectorInputSize(width: 640, height: 384))
    }

    @Test("portrait frames keep the long side vertical: 3:4 → 480×640, 9:16 → 384×640")
    func portrait() {
        #expect(size(810, 1080) == DetectorInputSize(width: 480, height: 640))
        #expect(size(720, 1280) == DetectorInputSize(width: 384, height: 640))
    }

    @Test("the padded rectangle adds half a stride before rounding up: 4:3 → 640×512, 16:9 → 640×384")
    func padded() {
        #expect(size(640, 480, .rectangularPadded) == DetectorInputSize(width: 640, height: 512))
        #expect(size(1280, 720, .rectangularPadded) == DetectorInputSize(width: 640, height: 384))
        #expect(size(810, 1080, .rectangularPadded) == DetectorInputSize(width: 512, height: 640))
        #expect(size(640, 640, .rectangularPadded) == model640)   // never above the model's square
    }

    @Test("square frames, square input, a 320 model and extreme strips")
    func others() {
        #expect(size(500, 500) == model640)
        #expect(size(1280, 720, .square) == model640)
        #expect(size(1280, 720, model: DetectorInputSize(width: 320, height: 320))
                == DetectorInputSize(width: 320, height: 192))
        // A strip never goes below one stride.
        #expect(size(4000, 10) == DetectorInputSize(width: 640, height: 32))
        // Every side is a multiple of the stride and at most the model's.
        for (w, h) in [(641, 479), (1000, 333), (333, 1000), (1366, 768), (1, 1)] {
            let s = size(w, h)
            #expect(s.width % 32 == 0 && s.height % 32 == 0 && s.width <= 640 && s.height <= 640)
        }
    }

    @Test("a 1280×720 frame in 640×384 is scaled by 0.5 with 12 grey rows above and below")
    func letterboxSixteenByNine() {
        let box = Letterbox(sourceWidth: 1280, sourceHeight: 720, targetWidth: 640, targetHeight: 384)
        #expect(box.scale == 0.5 && box.scaledWidth == 640 && box.scaledHeight == 360)
        #expect(box.padLeft == 0 && box.padTop == 12)
        let mapped = box.boxInSource(BoundingBox(x0: 100, y0: 112, x1: 300, y1: 212))
        #expect(abs(mapped.x0 - 200) < 0.01 && abs(mapped.y0 - 200) < 0.01)
        #expect(abs(mapped.x1 - 600) < 0.01 && abs(mapped.y1 - 400) < 0.01)
        // A box reaching into the padding is clipped to the picture.
        let edge = box.boxInSource(BoundingBox(x0: 0, y0: 0, x1: 640, y1: 384))
        #expect(edge.y0 == 0 && edge.y1 == 720 && edge.x1 == 1280)
    }

    @Test("a 810×1080 portrait in 480×640 fills it exactly: no padding, boxes scale back by 1080/640")
    func letterboxPortraitRectangle() {
        let box = Letterbox(sourceWidth: 810, sourceHeight: 1080, targetWidth: 480, targetHeight: 640)
        #expect(box.scaledWidth == 480 && box.scaledHeight == 640 && box.padLeft == 0 && box.padTop == 0)
        let mapped = box.boxInSource(BoundingBox(x0: 48, y0: 64, x1: 240, y1: 320))
        let k: Float = 1080.0 / 640.0
        #expect(abs(mapped.x0 - 48 * k) < 0.05 && abs(mapped.y0 - 64 * k) < 0.05)
        #expect(abs(mapped.x1 - 240 * k) < 0.05 && abs(mapped.y1 - 320 * k) < 0.05)
    }

    @Test("a 4:3 frame that is not 640 wide maps back through the scale alone (1024×768 in 640×480)")
    func letterboxFourByThree() {
        let box = Letterbox(sourceWidth: 1024, sourceHeight: 768, targetWidth: 640, targetHeight: 480)
        #expect(box.padLeft == 0 && box.padTop == 0 && box.scaledHeight == 480)
        let mapped = box.boxInSource(BoundingBox(x0: 320, y0: 240, x1: 640, y1: 480))
        #expect(abs(mapped.x0 - 512) < 0.01 && abs(mapped.y0 - 384) < 0.01)
        #expect(abs(mapped.x1 - 1024) < 0.01 && abs(mapped.y1 - 768) < 0.01)
    }

    @Test("the minimal letterbox pads only the rows it needs")
    func fillRectangle() {
        let image = RGBImage(width: 64, height: 36, filledWith: (0, 0, 0))
        let box = Letterbox(sourceWidth: 64, sourceHeight: 36, targetWidth: 64, targetHeight: 64 * 384 / 640)
        #expect(box.targetHeight == 38 && box.padTop == 1)
        var tensor = [Float](repeating: -1, count: 3 * 64 * 38)
        tensor.withUnsafeMutableBufferPointer { box.fill($0, from: image) }
        #expect(tensor[0] == Float(114) / 255)                 // row 0: padding
        #expect(tensor[64] == 0 && tensor[36 * 64 + 63] == 0)  // rows 1…36: the black picture
        #expect(tensor[37 * 64] == Float(114) / 255)           // row 37: padding
        #expect(!tensor.contains(-1))
    }
}

@Suite("Detecting with rectangular input on the shared YOLO11n IR", .serialized)
struct RectangularDetectionTests {
    static let core = Result { try InferenceCore() }

    func detector(_ shape: DetectorInputShape, capacity: Int = 4) throws -> ObjectDetector {
        try ObjectDetector(modelURL: SharedFiles.irModel, options: InferenceOptions(cacheDirectory: nil),
                           inputShape: shape, shapeCacheCapacity: capacity, core: Self.core.get())
    }

    @Test("bus.jpg (3:4) runs at 480×640 and finds the bus and at least three people where the square input does")
    func bus() throws {
        let image = try decodeTestImage(SharedFiles.image("bus.jpg"))
        let rectangular = try detector(.rectangular)
        let found = try rectangular.detect(image).detections
        #expect(rectangular.lastInputSize == DetectorInputSize(width: 480, height: 640))
        #expect(found.filter { $0.label == "bus" }.count == 1)
        #expect(found.filter { $0.label == "person" }.count >= 3)
        let bus = try #require(found.first { $0.label == "bus" })
        #expect(bus.confidence > 0.8)
        #expect(bus.box.width > 600 && bus.box.centerY > 300 && bus.box.centerY < 700)

        // Boxes land in the same picture coordinates as the square input's.
        let square = try detector(.square)
        let reference = try square.detect(image).detections
        #expect(square.lastInputSize == DetectorInputSize(width: 640, height: 640))
        let squareBus = try #require(reference.first { $0.label == "bus" })
        #expect(bus.box.intersectionOverUnion(with: squareBus.box) > 0.9)
        for person in reference.filter({ $0.label == "person" && $0.confidence > 0.7 }) {
            #expect(found.contains { $0.label == "person" && $0.box.intersectionOverUnion(with: person.box) > 0.8 })
        }
    }

    @Test("zidane.jpg (16:9) runs at 640×384 and finds both people on their own sides")
    func zidane() throws {
        let rectangular = try detector(.rectangular)
        let people = try rectangular.detect(try decodeTestImage(SharedFiles.image("zidane.jpg"))).detections
            .filter { $0.label == "person" }.sorted { $0.box.centerX < $1.box.centerX }
        #expect(rectangular.lastInputSize == DetectorInputSize(width: 640, height: 384))
        #expect(people.count == 2)
        #expect(people.count == 2 && people[0].box.centerX < 640 && people[1].box.centerX > 640)
    }

    @Test("each shape compiles once and at most `capacity` stay compiled, least recently used dropped")
    func shapeCache() throws {
        let detector = try detector(.rectangular, capacity: 2)
        #expect(detector.compiledInputSizes == [DetectorInputSize(width: 640, height: 640)])
        let fourByThree = RGBImage(width: 640, height: 480, filledWith: (128, 128, 128))
        let sixteenByNine = RGBImage(width: 1280, height: 720, filledWith: (128, 128, 128))
        _ = try detector.detect(fourByThree)
        _ = try detector.detect(fourByThree)
        #expect(detector.compiledInputSizes == [DetectorInputSize(width: 640, height: 640), DetectorInputSize(width: 640, height: 480)])
        _ = try detector.detect(sixteenByNine)
        #expect(detector.compiledInputSizes == [DetectorInputSize(width: 640, height: 480), DetectorInputSize(width: 640, height: 384)])
        #expect(detector.lastInputSize == DetectorInputSize(width: 640, height: 384))
        #expect(detector.compiledPrecision == "f32")
        _ = try detector.detect(fourByThree)
        #expect(detector.compiledInputSizes == [DetectorInputSize(width: 640, height: 384), DetectorInputSize(width: 640, height: 480)])
        // The least recently used shape went before the next was compiled, not after.
        #expect(detector.mostShapesResidentAtOnce == 2)
    }

    @Test("with room for one shape (a live session) the start-up shape is released before the frame's is compiled, and a switch of size still detects")
    func oneShapeResident() throws {
        let detector = try detector(.rectangular, capacity: 1)
        #expect(detector.mostShapesResidentAtOnce == 1)
        try detector.prepare(forFrameWidth: 640, height: 480)
        #expect(detector.compiledInputSizes == [DetectorInputSize(width: 640, height: 480)])
        #expect(detector.mostShapesResidentAtOnce == 1)
        let bus = try decodeTestImage(SharedFiles.image("bus.jpg"))   // 3:4, another camera
        #expect(try detector.detect(bus).detections.contains { $0.label == "bus" })
        #expect(detector.compiledInputSizes == [DetectorInputSize(width: 480, height: 640)])
        #expect(detector.lastInputSize == DetectorInputSize(width: 480, height: 640))
        _ = try detector.detect(RGBImage(width: 640, height: 480, filledWith: (128, 128, 128)))
        #expect(detector.compiledInputSizes == [DetectorInputSize(width: 640, height: 480)])
        #expect(detector.mostShapesResidentAtOnce == 1)
        #expect(try detector.rawInference() >= 0)
    }
}

@Suite("Rewriting a static YOLO IR for another input size")
struct StaticShapeRewriteTests {
    func sharedIR() throws -> (String, [UInt8]) {
        let text = try String(contentsOf: SharedFiles.irModel, encoding: .utf8)
        let weights = try [UInt8](Data(contentsOf: SharedFiles.irModel.deletingPathExtension().appendingPathExtension("bin")))
        return (text, weights)
    }

    @Test("the anchor grid has 8400 anchors at 640×640, 6300 at 640×480, 5040 at 640×384, strides 8, 16, 32")
    func anchorGrid() {
        #expect(YOLOStaticShapeRewrite.anchors(width: 640, height: 640).x.count == 8400)
        let grid = YOLOStaticShapeRewrite.anchors(width: 640, height: 480)
        #expect(grid.x.count == 6300 && grid.y.count == 6300)
        #expect(YOLOStaticShapeRewrite.anchors(width: 640, height: 384).x.count == 5040)
        #expect(grid.x[0] == 0.5 && grid.y[0] == 0.5 && grid.stride[0] == 8)
        #expect(grid.x[79] == 79.5 && grid.y[80] == 1.5)           // first row of 80, then the next
        #expect(grid.stride[4800] == 16 && grid.stride[6000] == 32 && grid.x.last == 19.5 && grid.y.last == 14.5)
    }

    @Test("the shared IR is rewritten for 640×480: input, anchors and reshape targets, nothing else")
    func rewritesSharedIR() throws {
        let (text, weights) = try sharedIR()
        let rewritten = try YOLOStaticShapeRewrite(oldWidth: 640, oldHeight: 640, newWidth: 640, newHeight: 480)
            .rewrite(irText: text, weights: weights)
        #expect(rewritten.irText.contains("shape=\"1,3,480,640\""))
        // The anchor constants; other layers' port dimensions are re-inferred by OpenVINO on reading.
        #expect(rewritten.irText.contains("shape=\"1, 2, 6300\"") && rewritten.irText.contains("shape=\"1, 1, 6300\""))
        #expect(!rewritten.irText.contains("shape=\"1, 2, 8400\"") && rewritten.irText.contains("<dim>6300</dim>"))
        // Two anchor constants appended: 2×6300 centres and 6300 strides, as f32.
        #expect(rewritten.weights.count == weights.count + (2 * 6300 + 6300) * 4)
        #expect(rewritten.irText.utf8.count - text.utf8.count < 100)   // a few attributes changed, no line lost
    }

    @Test("an anchor constant that is not Ultralytics' grid is refused, not guessed")
    func refusesUnknownAnchors() throws {
        let (text, weights) = try sharedIR()
        var tampered = weights
        tampered[0] ^= 0x40   // the first anchor constant starts at offset 0 in this IR
        #expect(throws: YOLOStaticShapeRewrite.Failure.self) {
            try YOLOStaticShapeRewrite(oldWidth: 640, oldHeight: 640, newWidth: 640, newHeight: 480)
                .rewrite(irText: text, weights: tampered)
        }
        #expect(throws: YOLOStaticShapeRewrite.Failure.self) {
            try YOLOStaticShapeRewrite(oldWidth: 640, oldHeight: 640, newWidth: 640, newHeight: 470)
                .rewrite(irText: text, weights: weights)
        }
    }
}

@Suite("A model that cannot be resized falls back to its own size and says why")
struct ResizeFallbackTests {
    @Test("the ONNX export (its sizes fixed inside the graph) runs bus.jpg at 320×320 and still finds the bus")
    func onnxFallsBack() throws {
        let detector = try ObjectDetector(modelURL: SharedFiles.onnxModel, options: InferenceOptions(cacheDirectory: nil),
                                          inputShape: .rectangular)
        let found = try detector.detect(try decodeTestImage(SharedFiles.image("bus.jpg"))).detections
        #expect(detector.lastInputSize == DetectorInputSize(width: 320, height: 320))
        let failure = try #require(detector.resizeFailure)
        // 810×1080 at 320: 240 columns, rounded up to 256.
        #expect(failure.userMessage.contains("yolo11n_320_int8dyn.onnx") && failure.userMessage.contains("256×320"))
        #expect(found.contains { $0.label == "bus" })
        #expect(detector.inputSize(forFrameWidth: 1280, height: 720) == DetectorInputSize(width: 320, height: 320))
    }
}
