import AssistCore
import Foundation
import TestSupport
import Testing
@testable import Perception

@Suite("Faces: how many, where, how far (never who)", .serialized)
struct FaceDetectorTests {
    static let detector = Result { try FaceDetector(model: SharedFiles.model(FaceDetector.relativePath)) }
    static let core = Result { try InferenceCore() }
    nonisolated(unsafe) static let objects = Result {
        try ObjectDetector(modelURL: SharedFiles.irModel, options: InferenceOptions(cacheDirectory: nil), core: core.get())
    }
    let locator: ObjectLocator
    var detector: FaceDetector { get throws { try Self.detector.get() } }

    init() throws {
        locator = try ObjectLocator(camera: .chestWorn)
    }

    /// The people the product's object detector (the shared YOLO11n IR, default settings) finds,
    /// as `assist see --faces` hands them to the face detector.
    func people(in image: RGBImage) throws -> [BoundingBox] {
        try Self.objects.get().detect(image).detections.filter { $0.label == FaceDetector.personLabel }.map(\.box)
    }

    // Marked by eye on zidane.jpg: Zidane's face x 500–680, y 190–460; the right-hand man's x 918–1074, y 109–265.
    static func isZidanesFace(_ box: BoundingBox) -> Bool { box.centerX > 500 && box.centerX < 680 && box.centerY > 190 && box.centerY < 460 }
    static func isRightHandFace(_ box: BoundingBox) -> Bool { box.centerX > 918 && box.centerX < 1074 && box.centerY > 109 && box.centerY < 265 }

    /// Zidane's face is turned, tilted and his mouth open; the cascades missed it. YuNet scores it
    /// 0.87: found on his head when the detector's people are known (as `assist see --faces` and
    /// "how many faces" always have them), below the whole-picture rule's 0.9 without. Fails if a
    /// face is lost or misplaced, or a third is found.
    @Test("zidane.jpg with the detector's people: both faces, Zidane's left of the right-hand man's; alone, the right-hand man's")
    func zidane() throws {
        let image = try decodeTestImage(SharedFiles.zidane)
        let people = try people(in: image)
        try #require(people.count == 2)
        let faces = try detector.detect(in: image, people: people).sorted { $0.box.centerX < $1.box.centerX }
        try #require(faces.count == 2, "\(faces.map(\.box))")
        #expect(faces.allSatisfy { $0.label == "face" && $0.classIndex == FaceDetector.classIndex })
        #expect(Self.isZidanesFace(faces[0].box), "\(faces[0].box)")
        #expect(Self.isRightHandFace(faces[1].box), "\(faces[1].box)")
        let located = try locator.locate(faces, imageWidth: image.width, imageHeight: image.height)
        #expect(located[0].direction.angleDegrees < located[1].direction.angleDegrees)
        #expect(located[1].direction.angleDegrees > 10)
        let alone = try detector.detect(in: image)
        #expect(alone.count == 1 && Self.isRightHandFace(alone[0].box), "\(alone.map(\.box))")
    }

    /// A face-like pattern away from every person is not a face when a detector looked: with the
    /// only "person" put in the picture's bottom-left corner, no face; one box over the whole
    /// picture is one person, so one face however many heads are in it.
    @Test("with a detector, a face away from every person is not called a face; one face per person")
    func facesOnlyOnPeople() throws {
        let image = try decodeTestImage(SharedFiles.zidane)
        #expect(try detector.detect(in: image, people: [BoundingBox(x0: 0, y0: 600, x1: 100, y1: 720)]).isEmpty)
        #expect(try detector.detect(in: image, people: []).isEmpty)
        #expect(try detector.detect(in: image, people: [BoundingBox(x0: 0, y0: 0, x1: 1280, y1: 720)]).count == 1)
    }

    /// bus.jpg: four people face the camera, small (about 5 % of the picture's width); two of the
    /// faces are clear, two half hidden or in shadow.
    @Test("bus.jpg with the detector's people: at least two faces, each on a person's head")
    func busWithPeople() throws {
        let image = try decodeTestImage(SharedFiles.bus)
        let people = try people(in: image)
        let faces = try detector.detect(in: image, people: people)
        print("bus.jpg: \(faces.count) faces on \(people.count) people: \(faces.map { ($0.confidence, $0.box) })")
        #expect(faces.count >= 2 && faces.count <= people.count)
        for face in faces {
            // Each in the top third of a person's box, and narrower than it.
            #expect(people.contains { person in
                face.box.centerX > person.x0 && face.box.centerX < person.x1
                    && face.box.centerY > person.y0 - 0.05 * person.height && face.box.centerY < person.y0 + person.height / 3
                    && face.box.width < person.width
            }, "\(face.box)")
        }
    }

    /// Every picture of coco128 whose labels have no person (class 0): among them a knife rack and
    /// a monitor the cascades called faces, a dog's face and doughnuts YuNet scores 0.6–0.88.
    @Test("the coco128 pictures without people: no face, with the detector's people or on the whole picture alone")
    func noPeopleNoFace() throws {
        let labels = SharedFiles.data("coco128/labels/train2017")
        let names = try FileManager.default.contentsOfDirectory(atPath: SharedFiles.data("coco128/images/train2017").path)
            .filter { $0.hasSuffix(".jpg") }.sorted()
        var withoutPeople = 0
        for name in names {
            let label = labels.appendingPathComponent(String(name.dropLast(4)) + ".txt")
            let classes = ((try? String(contentsOf: label, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { $0.split(separator: " ").first }
            guard !classes.contains("0") else { continue }
            withoutPeople += 1
            let image = try decodeTestImage(SharedFiles.data("coco128/images/train2017/\(name)"))
            let alone = try detector.detect(in: image)
            let onPeople = try detector.detect(in: image, people: try people(in: image))
            #expect(alone.isEmpty && onPeople.isEmpty, "\(name): \(alone.map(\.box)) \(onPeople.map(\.box))")
        }
        #expect(withoutPeople == 67)
    }

    @Test("a frontal portrait (zidane.jpg cut around the right-hand face) has one face, ahead")
    func portrait() throws {
        let image = try decodeTestImage(SharedFiles.zidane)
        let face = try #require(try detector.detect(in: image).first { Self.isRightHandFace($0.box) }).box
        // A portrait: the face in the middle, the frame three face-widths wide and four high.
        let side = Int(face.width)
        let x0 = max(0, Int(face.centerX) - 3 * side / 2), y0 = max(0, Int(face.centerY) - 3 * side / 2)
        let width = min(3 * side, image.width - x0), height = min(4 * side, image.height - y0)
        var pixels: [UInt8] = []
        for y in y0..<(y0 + height) { pixels += image.pixels[((y * image.width + x0) * 3)..<((y * image.width + x0 + width) * 3)] }
        let portrait = RGBImage(width: width, height: height, pixels: pixels)
        let found = try detector.detect(in: portrait)
        try #require(found.count == 1)
        let located = try locator.locate(found, imageWidth: portrait.width, imageHeight: portrait.height)
        #expect(located[0].direction.horizontal == .ahead)
    }

    @Test("a mirrored picture has as many faces, at the mirrored places")
    func mirrored() throws {
        let image = try decodeTestImage(SharedFiles.zidane)
        var pixels = image.pixels
        for y in 0..<image.height {
            for x in 0..<image.width {
                let from = (y * image.width + image.width - 1 - x) * 3, to = (y * image.width + x) * 3
                pixels[to] = image.pixels[from]; pixels[to + 1] = image.pixels[from + 1]; pixels[to + 2] = image.pixels[from + 2]
            }
        }
        let faces = try detector.detect(in: image)
        let mirroredFaces = try detector.detect(in: RGBImage(width: image.width, height: image.height, pixels: pixels))
        #expect(mirroredFaces.count == faces.count)
        for face in faces {
            let mirroredCentre = Float(image.width) - face.box.centerX
            #expect(mirroredFaces.contains { abs($0.box.centerX - mirroredCentre) < face.box.width / 4 && abs($0.box.centerY - face.box.centerY) < face.box.width / 4 })
        }
    }

    /// The input is the picture scaled to at most 640 pixels on its longer side, never enlarged,
    /// padded to a multiple of 32: a 640×480 camera frame goes in as it is.
    @Test("the model's input: a 640×480 frame as it is; a larger picture scaled down; a small one padded, not enlarged")
    func inputSize() throws {
        let detector = try detector
        let frame = detector.inputSize(for: RGBImage(width: 640, height: 480, filledWith: (0, 0, 0)))
        #expect(frame.padded == FaceDetector.Size(width: 640, height: 480) && frame.scale == 1)
        let photo = detector.inputSize(for: RGBImage(width: 810, height: 1080, filledWith: (0, 0, 0)))
        #expect(photo.scaled == FaceDetector.Size(width: 480, height: 640) && photo.padded == FaceDetector.Size(width: 480, height: 640))
        let small = detector.inputSize(for: RGBImage(width: 100, height: 50, filledWith: (0, 0, 0)))
        #expect(small.scaled == FaceDetector.Size(width: 100, height: 50) && small.padded == FaceDetector.Size(width: 128, height: 64))
    }

    @Test("a picture with no face has none; an empty picture has none")
    func noFace() throws {
        #expect(try detector.detect(in: RGBImage(width: 320, height: 240, filledWith: (120, 120, 120))).isEmpty)
        #expect(try detector.detect(in: RGBImage(width: 0, height: 0, pixels: [])).isEmpty)
    }

    @Test("a missing face model is a typed error that names where it was looked for")
    func missingModel() {
        #expect(throws: FaceModelError.modelNotFound(searched: ["/nonexistent/yunet.onnx"])) {
            try FaceDetector(model: URL(fileURLWithPath: "/nonexistent/yunet.onnx"))
        }
        let locator = ModelLocator(environment: ["ASSIST_MODELS": "/nonexistent", "HOME": "/nonexistent"], workingDirectory: URL(fileURLWithPath: "/"), executableURL: nil)
        #expect(throws: FaceModelError.self) { try FaceDetector.located(locator: locator) }
        #expect(FaceModelError.modelNotFound(searched: ["/a"]).userMessage.contains(FaceDetector.relativePath))
    }

    @Test("a file that is not YuNet is refused with a typed error")
    func notYuNet() throws {
        #expect(throws: FaceModelError.self) { try FaceDetector(model: SharedFiles.irModel) }
    }
}
