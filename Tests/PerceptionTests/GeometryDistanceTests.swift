import AssistCore
import Foundation
import Testing
@testable import Perception

@Suite("Distance from geometry")
struct GeometryDistanceTests {
    /// Sizes chosen for the tests, so hand computations do not depend on the shipped table.
    let sizes: ObjectSizeTable = {
        do {
            return try ObjectSizeTable(sizes: [
                "person": ObjectSize(heightMeters: 1.7, relativeSpread: 0.2, standsOnFloor: true, source: "test"),
                "stop sign": ObjectSize(heightMeters: 0.75, widthMeters: 0.75, relativeSpread: 0.15, standsOnFloor: false, source: "test"),
                "chair": ObjectSize(heightMeters: 0.85, widthMeters: 0.5, relativeSpread: 0.2, standsOnFloor: false, source: "test"),
                "floor mark": ObjectSize(relativeSpread: 0.5, standsOnFloor: true, source: "test: floor only"),
                "bat": ObjectSize(lengthMeters: 0.84, relativeSpread: 0.15, standsOnFloor: false, source: "test"),
            ])
        } catch { fatalError("test table: \(error)") }
    }()

    func geometry(heightMeters: Double = 1.3, pitchDownDegrees: Double = 0) throws -> GeometricDistance {
        GeometricDistance(intrinsics: try primeSenseLikeIntrinsics(),
                          camera: try camera(heightMeters: heightMeters, pitchDownDegrees: pitchDownDegrees),
                          imageWidth: 640, imageHeight: 480, sizes: sizes)
    }

    @Test("a 1.7 m person 178.5 px tall is 525 · 1.7 / 178.5 = 5 m away by size")
    func pinholeHeight() throws {
        // Bottom row 230 is above the horizon row 240, so the floor cue cannot work here.
        let box = BoundingBox(x0: 300, y0: 51.5, x1: 340, y1: 230)
        let cue = try #require(try geometry().objectSizeCue(box: box, label: "person"))
        #expect(abs(cue.meters - 5.0) < 1e-9)
        let estimate = try geometry().estimate(box: box, label: "person")
        #expect(estimate.method == .objectSize)
        #expect(abs(try #require(estimate.meters) - 5.0) < 1e-9)
    }

    @Test("a 0.75 m stop sign 75 px wide and tall is 5.25 m away, from height and width alike")
    func pinholeHeightAndWidth() throws {
        let cue = try #require(try geometry().objectSizeCue(box: BoundingBox(x0: 100, y0: 100, x1: 175, y1: 175), label: "stop sign"))
        #expect(abs(cue.meters - 5.25) < 1e-9)
        // Class spread 0.15 with 5 % box error and 2√2 px on 75 px, the two extents averaged.
        let measurement = (0.05 * 0.05 + pow(2 * 2.squareRoot() / 75, 2)).squareRoot() / 2.squareRoot()
        #expect(abs(cue.relativeError - (0.15 * 0.15 + measurement * measurement).squareRoot()) < 1e-9)
    }

    @Test("a box cut by the top border drops the height cue but keeps the width")
    func cutBoxes() throws {
        let g = try geometry()
        let cutAtTop = BoundingBox(x0: 200, y0: 0, x1: 252.5, y1: 60)
        let cue = try #require(g.objectSizeCue(box: cutAtTop, label: "chair"))
        #expect(abs(cue.meters - 525 * 0.5 / 52.5) < 1e-9)
        // Cut at the top and at the left: no extent is whole.
        #expect(g.objectSizeCue(box: BoundingBox(x0: 0, y0: 0, x1: 60, y1: 60), label: "chair") == nil)
        // A person cut at the top has no usable size.
        #expect(g.objectSizeCue(box: BoundingBox(x0: 300, y0: 1, x1: 340, y1: 200), label: "person") == nil)
    }

    @Test("long thin objects are measured along the box diagonal")
    func lengthAgainstDiagonal() throws {
        // A 0.84 m bat spanning 60 × 80 px (100 px diagonal) is 525 · 0.84 / 100 = 4.41 m away.
        let cue = try #require(try geometry().objectSizeCue(box: BoundingBox(x0: 100, y0: 100, x1: 160, y1: 180), label: "bat"))
        #expect(abs(cue.meters - 4.41) < 1e-9)
    }

    @Test("feet 170.625 px below the horizon, camera 1.3 m up, fy 525: ground contact at 4 m")
    func groundContact() throws {
        let box = BoundingBox(x0: 300, y0: 300, x1: 340, y1: 410.625)
        let cue = try #require(try geometry().groundContactCue(box: box, label: "floor mark"))
        #expect(abs(cue.meters - 4.0) < 1e-9)
        let estimate = try geometry().estimate(box: box, label: "floor mark")
        #expect(estimate.method == .groundContact)
    }

    @Test("with the camera tilted 10° down, feet on the image centre row are 1.3 / tan 10° = 7.37 m away")
    func groundContactWithPitch() throws {
        let cue = try #require(try geometry(pitchDownDegrees: 10).groundContactCue(
            box: BoundingBox(x0: 300, y0: 200, x1: 340, y1: 240), label: "floor mark"))
        #expect(abs(cue.meters - 1.3 / tan(10 * Double.pi / 180)) < 1e-9)
    }

    @Test("the ground-contact error is hand-computed at 5 m and grows with distance")
    func groundContactError() throws {
        let g = try geometry()
        func cue(meters: Double) throws -> DistanceCue {
            let v = 240 + 525 * 1.3 / meters
            return try #require(g.groundContactCue(box: BoundingBox(x0: 300, y0: Float(v) - 50, x1: 340, y1: Float(v)), label: "floor mark"))
        }
        let alpha = atan(1.3 / 5)
        let sigmaAlpha = (pow(2 * Double.pi / 180, 2) + pow(2.0 / 525, 2)).squareRoot()
        let expected = (0.05 * 0.05 + pow(sigmaAlpha / (sin(alpha) * cos(alpha)), 2)).squareRoot()
        #expect(abs(try cue(meters: 5).relativeError - expected) < 1e-6)
        #expect(try cue(meters: 3).relativeError < cue(meters: 5).relativeError)
        #expect(try cue(meters: 5).relativeError < cue(meters: 10).relativeError)
    }

    @Test("no ground contact above the horizon, for cut-off feet, or for things that do not stand on the floor")
    func groundContactUnusable() throws {
        let g = try geometry()
        #expect(g.groundContactCue(box: BoundingBox(x0: 300, y0: 100, x1: 340, y1: 235), label: "floor mark") == nil)
        #expect(g.groundContactCue(box: BoundingBox(x0: 300, y0: 300, x1: 340, y1: 480), label: "floor mark") == nil)
        #expect(g.groundContactCue(box: BoundingBox(x0: 300, y0: 300, x1: 340, y1: 400), label: "stop sign") == nil)
        // 1° below the horizon (74 m) is under the 2° limit.
        #expect(g.groundContactCue(box: BoundingBox(x0: 300, y0: 200, x1: 340, y1: 240 + Float(525 * tan(Double.pi / 180))),
                                   label: "floor mark") == nil)
    }

    @Test("two cues are combined by inverse variance in log distance")
    func combination() throws {
        // 4 m ±10 % (weight 100) and 9 m ±20 % (weight 25): exp((100 ln 4 + 25 ln 9) / 125) = 4^0.8 · 9^0.2.
        let both = try #require(DistanceCue.combined([DistanceCue(meters: 4, relativeError: 0.1),
                                                      DistanceCue(meters: 9, relativeError: 0.2)]))
        #expect(abs(both.meters - pow(4, 0.8) * pow(9, 0.2)) < 1e-9)
        #expect(abs(both.relativeError - 1 / 125.0.squareRoot()) < 1e-12)
        #expect(DistanceCue.combined([]) == nil)
    }

    @Test("a whole standing person uses both cues, and the result lies between them nearer the surer one")
    func combinedEstimate() throws {
        let g = try geometry()
        // 1.7 m tall and 105 px → size says 8.5 m; feet at row 240 + 525·1.3/5 → floor says 5 m.
        let feet = Float(240 + 525 * 1.3 / 5)
        let box = BoundingBox(x0: 300, y0: feet - 105, x1: 340, y1: feet)
        let size = try #require(g.objectSizeCue(box: box, label: "person"))
        let floor = try #require(g.groundContactCue(box: box, label: "person"))
        let estimate = g.estimate(box: box, label: "person")
        #expect(estimate.method == .combined)
        let meters = try #require(estimate.meters)
        #expect(meters > floor.meters && meters < size.meters)
        #expect(floor.relativeError < size.relativeError)
        #expect(meters - floor.meters < size.meters - meters)
        #expect(try #require(estimate.relativeError) < floor.relativeError)
    }

    @Test("no cue → distance unknown, never a made-up number")
    func unknownDistance() throws {
        let g = try geometry()
        #expect(g.estimate(box: BoundingBox(x0: 10, y0: 10, x1: 50, y1: 50), label: "not in the table") == .unknown)
        // A person cut at the top and the bottom: no size, no feet.
        let unknown = g.estimate(box: BoundingBox(x0: 300, y0: 0, x1: 340, y1: 480), label: "person")
        #expect(unknown.meters == nil && unknown.method == nil && !unknown.isKnown)
    }

    @Test("the shipped table covers all 80 COCO classes and faces, each with a source and a positive spread")
    func bundledTable() throws {
        let table = try ObjectSizeTable.bundled()
        let coco = COCOClasses.names
        #expect(Set(table.sizes.keys) == Set(coco).union([FaceDetector.label]))
        for (label, size) in table.sizes {
            #expect(!size.source.isEmpty, "\(label) has no source")
        }
        #expect(table["person"]?.heightMeters == 1.7 && table["person"]?.standsOnFloor == true)
        #expect(table["bus"]?.standsOnFloor == true && table["chair"]?.standsOnFloor == true)
    }

    @Test("a size table with a negative height is rejected, naming the class and field")
    func badTable() {
        #expect(throws: ObjectSizeTableError.badValue(label: "cup", field: "heightMeters", value: -1)) {
            try ObjectSizeTable(sizes: ["cup": ObjectSize(heightMeters: -1, relativeSpread: 0.2, standsOnFloor: false, source: "")])
        }
        #expect(throws: ObjectSizeTableError.self) { try ObjectSizeTable(json: Data("{\"classes\": 3}".utf8)) }
    }
}
