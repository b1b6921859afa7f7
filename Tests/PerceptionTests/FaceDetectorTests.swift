import AssistCore
import Foundation
import TestSupport
import Testing
@testable import Perception

@Suite("Faces: how many, where, how far (never who)", .serialized)
struct FaceDetectorTests {
    let detector: FaceDetector
    let locator: ObjectLocator
    static let core = Result { try InferenceCore() }

    init() throws {
        detector = try FaceDetector()
        locator = try ObjectLocator(camera: .chestWorn)
    }

    /// The people the product's object detector (the shared YOLO11n IR, default settings) finds,
    /// as `assist see --faces` hands them to the face detector.
    func people(in image: RGBImage) throws -> [BoundingBox] {
        let objects = try ObjectDetector(modelURL: SharedFiles.irModel, options: InferenceOptions(cacheDirectory: nil), core: Self.core.get())
        return try objects.detect(image).detections.filter { $0.label == FaceDetector.personLabel }.map(\.box)
    }

    /// zidane.jpg has two faces. Knowing where the two men are, the right-hand man's frontal face
    /// is found on the whole picture and Zidane's own (turned, tilted, mouth open) on his head
    /// region, searched at full resolution and tilted. Fails if either is lost or misplaced, or a third is found.
    @Test("zidane.jpg with the detector's people: two faces, Zidane's left of the right-hand man's")
    func zidaneWithPeople() throws {
        let image = try decodeTestImage(SharedFiles.image("zidane.jpg"))
        let people = try people(in: image)
        try #require(people.count == 2)
        let faces = detector.detect(in: image, people: people).sorted { $0.box.centerX < $1.box.centerX }
        try #require(faces.count == 2, "\(faces.map(\.box))")
        // Marked by eye: Zidane's face x 500–680, y 190–460; the right-hand man's x 918–1074, y 109–265.
        #expect(faces[0].box.centerX > 500 && faces[0].box.centerX < 680 && faces[0].box.centerY > 190 && faces[0].box.centerY < 460)
        #expect(faces[1].box.centerX > 918 && faces[1].box.centerX < 1074 && faces[1].box.centerY > 109 && faces[1].box.centerY < 265)
        let located = try locator.locate(faces, imageWidth: image.width, imageHeight: image.height)
        #expect(located[0].direction.angleDegrees < located[1].direction.angleDegrees)
    }

    /// A face-like pattern away from every person is not a face when a detector looked: the
    /// right-hand man's face, with the only "person" put in the picture's bottom-left corner, is dropped.
    @Test("with a detector, a face away from every person is not called a face; one face per person")
    func facesOnlyOnPeople() throws {
        let image = try decodeTestImage(SharedFiles.image("zidane.jpg"))
        #expect(detector.detect(in: image, people: [BoundingBox(x0: 0, y0: 600, x1: 100, y1: 720)]).isEmpty)
        #expect(detector.detect(in: image, people: []).isEmpty)
        // One box over the whole picture is one person: one face, however many heads are in it.
        #expect(detector.detect(in: image, people: [BoundingBox(x0: 0, y0: 0, x1: 1280, y1: 720)]).count == 1)
    }

    /// bus.jpg: four people face the camera, small (about 5 % of the picture's width); the detector
    /// finds three of them at the default confidence (the fourth, half hidden, at 0.48). Faces on
    /// their heads are counted here and printed; the whole picture alone gives one (BENCHMARKS.md, issue 40, "Faces").
    @Test("bus.jpg with the detector's people: the small faces on their heads are counted, each on a person's head")
    func busWithPeople() throws {
        let image = try decodeTestImage(SharedFiles.image("bus.jpg"))
        let people = try people(in: image)
        let faces = detector.detect(in: image, people: people)
        print("bus.jpg: \(faces.count) faces on \(people.count) people: \(faces.map(\.box))")
        #expect(faces.count >= 2 && faces.count <= people.count)
        for face in faces {
            // Each in the top third of a person's box, and smaller than it is wide.
            #expect(people.contains { person in
                face.box.centerX > person.x0 && face.box.centerX < person.x1
                    && face.box.centerY > person.y0 - 0.05 * person.height && face.box.centerY < person.y0 + person.height / 3
                    && face.box.width < person.width
            }, "\(face.box)")
        }
    }

    /// zidane.jpg without a detector (the whole picture, strict rule): the frontal cascade finds
    /// the right-hand man's face where it is; Zidane's own face is missed. Fails if the right-hand
    /// face is lost or misplaced, or if anything else is called a face (the blurred crowd at the
    /// far left and the pointing hand were, at other settings).
    @Test("zidane.jpg, no detector: the right-hand man's frontal face is found where it is, right of ahead, about a metre or two away")
    func zidane() throws {
        let image = try decodeTestImage(SharedFiles.image("zidane.jpg"))
        let faces = detector.detect(in: image)
        #expect(faces.allSatisfy { $0.label == "face" })
        let isRightHandFace = { (box: BoundingBox) in box.centerX > 918 && box.centerX < 1074 && box.centerY > 109 && box.centerY < 265 }
        // Zidane's face, marked by eye: x 500–680, y 190–460.
        let isZidanesFace = { (box: BoundingBox) in box.centerX > 500 && box.centerX < 680 && box.centerY > 190 && box.centerY < 460 }
        #expect(faces.allSatisfy { isRightHandFace($0.box) || isZidanesFace($0.box) }, "\(faces.map(\.box))")
        if faces.count == 2 {
            #expect(faces.contains { isZidanesFace($0.box) } && faces.contains { isRightHandFace($0.box) })
        }
        // The face, marked by eye on the picture: x 918–1074, y 109–265.
        let face = try #require(faces.first { $0.box.centerX > 918 && $0.box.centerX < 1074 && $0.box.centerY > 109 && $0.box.centerY < 265 })
        #expect(face.box.width > 100 && face.box.width < 220)
        let located = try locator.locate([face], imageWidth: image.width, imageHeight: image.height)[0]
        #expect(located.direction.angleDegrees > 10)
        #expect((located.distance.meters ?? 0) > 0.5 && (located.distance.meters ?? 100) < 3)
    }

    @Test("a frontal portrait (zidane.jpg cut around the right-hand face) has one face, ahead")
    func portrait() throws {
        let image = try decodeTestImage(SharedFiles.image("zidane.jpg"))
        let faces = detector.detect(in: image).sorted { $0.box.centerX < $1.box.centerX }
        let face = try #require(faces.last).box
        // A portrait: the face in the middle, the frame three face-widths wide and four high.
        let side = Int(face.width)
        let x0 = max(0, Int(face.centerX) - 3 * side / 2), y0 = max(0, Int(face.centerY) - 3 * side / 2)
        let width = min(3 * side, image.width - x0), height = min(4 * side, image.height - y0)
        var pixels: [UInt8] = []
        for y in y0..<(y0 + height) { pixels += image.pixels[((y * image.width + x0) * 3)..<((y * image.width + x0 + width) * 3)] }
        let portrait = RGBImage(width: width, height: height, pixels: pixels)
        let found = detector.detect(in: portrait)
        try #require(found.count == 1)
        let located = try locator.locate(found, imageWidth: portrait.width, imageHeight: portrait.height)
        #expect(located[0].direction.horizontal == .ahead)
    }

    /// A frontal portrait from coco128 (000000000459: a man in a suit facing the camera, a mirror
    /// photograph). His face is at a third of the picture's width, so it is "slightly left" there;
    /// cut to the left 364 pixels (full height), as a portrait centred on him would be framed, it is ahead.
    @Test("a frontal portrait (coco128 000000000459) has one face; centred on him, ahead; with or without the detector's people")
    func frontalPortrait() throws {
        let photo = try decodeTestImage(SharedFiles.data("coco128/images/train2017/000000000459.jpg"))
        var pixels: [UInt8] = []
        for y in 0..<photo.height { pixels += photo.pixels[(y * photo.width * 3)..<((y * photo.width + 364) * 3)] }
        let centred = RGBImage(width: 364, height: photo.height, pixels: pixels)
        for (image, side) in [(photo, HorizontalDirection.slightlyLeft), (centred, .ahead)] {
            for faces in [detector.detect(in: image), detector.detect(in: image, people: try people(in: image))] {
                try #require(faces.count == 1, "\(faces.map(\.box))")
                let located = try locator.locate(faces, imageWidth: image.width, imageHeight: image.height)
                #expect(located[0].direction.horizontal == side)
            }
        }
    }

    /// The two pictures of coco128 without people where the whole picture alone still finds a face
    /// (a knife rack, a computer monitor): the detector finds nobody there, so nothing is a face.
    @Test("pictures without people where the cascades alone see a face: the detector finds nobody, so no face",
          arguments: ["000000000089", "000000000643"])
    func noPeopleNoFace(name: String) throws {
        let image = try decodeTestImage(SharedFiles.data("coco128/images/train2017/\(name).jpg"))
        #expect(!detector.detect(in: image).isEmpty, "the strict rule alone no longer errs here: pick another picture")
        let people = try people(in: image)
        #expect(people.isEmpty)
        #expect(detector.detect(in: image, people: people).isEmpty)
    }

    @Test("a picture with no face has none")
    func noFace() throws {
        #expect(detector.detect(in: RGBImage(width: 320, height: 240, filledWith: (120, 120, 120))).isEmpty)
        let coco = SharedFiles.data("coco128/images/train2017/000000000025.jpg")  // two giraffes
        #expect(detector.detect(in: try decodeTestImage(coco)).isEmpty)
    }

    /// Pictures of coco128 whose labels have no person: among them three where the profile cascade
    /// alone, at four agreeing windows, found faces (000000000081, 143, 263), and others where OpenCV's
    /// own evaluation of these cascades at other settings did. Two person-free pictures still get a
    /// false face and are therefore not here (000000000089, a knife rack; 000000000643, a monitor):
    /// BENCHMARKS.md, issue 40, "Faces".
    @Test("pictures without people have no face", arguments: ["000000000081", "000000000143", "000000000263", "000000000283",
                                                               "000000000384", "000000000009", "000000000312", "000000000194"])
    func noPeople(name: String) throws {
        let image = try decodeTestImage(SharedFiles.data("coco128/images/train2017/\(name).jpg"))
        let faces = detector.detect(in: image)
        #expect(faces.isEmpty, "\(faces.map(\.box))")
    }

    @Test("a mirrored picture has as many faces, at the mirrored places")
    func mirrored() throws {
        let image = try decodeTestImage(SharedFiles.image("zidane.jpg"))
        var pixels = image.pixels
        for y in 0..<image.height {
            for x in 0..<image.width {
                let from = (y * image.width + image.width - 1 - x) * 3, to = (y * image.width + x) * 3
                pixels[to] = image.pixels[from]; pixels[to + 1] = image.pixels[from + 1]; pixels[to + 2] = image.pixels[from + 2]
            }
        }
        let faces = detector.detect(in: image)
        let mirroredFaces = detector.detect(in: RGBImage(width: image.width, height: image.height, pixels: pixels))
        #expect(mirroredFaces.count == faces.count)
        // The right-hand man's face is now on the left, about where the mirror puts it.
        let face = try #require(faces.first { $0.box.centerX > 918 && $0.box.centerX < 1074 })
        let mirroredCentre = Float(image.width) - face.box.centerX
        #expect(mirroredFaces.contains { abs($0.box.centerX - mirroredCentre) < face.box.width / 4 && abs($0.box.centerY - face.box.centerY) < face.box.width / 4 })
    }

    @Test("the profile cascade alone needs more agreeing windows than the frontal one; two cascades add up")
    func profileNeedsMoreSupport() {
        func finding(frontal: Int, profile: Int) -> FaceDetector.Finding {
            FaceDetector.Finding(x: 0, y: 0, size: 24, frontalWindows: frontal, windows: frontal + profile,
                                 cascades: (frontal > 0 ? 1 : 0) + (profile > 0 ? 1 : 0), profileSides: profile > 0 ? [0] : [])
        }
        #expect(detector.isFace(finding(frontal: 4, profile: 0)))
        #expect(!detector.isFace(finding(frontal: 3, profile: 0)))
        #expect(!detector.isFace(finding(frontal: 0, profile: 5)))
        #expect(!detector.isFace(finding(frontal: 0, profile: 9)))
        #expect(detector.isFace(finding(frontal: 0, profile: 10)))
        #expect(detector.isFace(finding(frontal: 3, profile: 5)))
        #expect(!detector.isFace(finding(frontal: 2, profile: 5)))
    }

    @Test("a cascade file that is not a Haar cascade is refused with a typed error")
    func badCascade() {
        #expect(throws: FaceCascade.LoadError.unreadable(path: "/nonexistent.xml")) { try FaceCascade(contentsOf: "/nonexistent.xml") }
    }
}
