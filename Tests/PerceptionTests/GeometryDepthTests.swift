import AssistCore
import Foundation
import Testing
@testable import Perception

@Suite("Distance from a depth map")
struct GeometryDepthTests {
    /// A 100 × 100 map: background at 8 m; an object at 2 m (±2 cm) in rows/columns 20..<80,
    /// and inside the box's core (35..<65) 30 % of pixels at 8 m and 20 % holes.
    func depthWithOutliers(outlierShare: Double = 0.3, holeShare: Double = 0.2) -> DepthMap {
        var values = [Float](repeating: 8, count: 100 * 100)
        var generator = SplitMix64(seed: 7)
        for y in 20..<80 {
            for x in 20..<80 {
                let draw = Double.random(in: 0..<1, using: &generator)
                let inCore = (35..<65).contains(x) && (35..<65).contains(y)
                if inCore && draw < holeShare {
                    values[y * 100 + x] = .nan
                } else if inCore && draw < holeShare + outlierShare {
                    values[y * 100 + x] = 8
                } else {
                    values[y * 100 + x] = 2 + Float.random(in: -0.02...0.02, using: &generator)
                }
            }
        }
        return DepthMap(width: 100, height: 100, metersOrNaN: values)
    }

    let box = BoundingBox(x0: 20, y0: 20, x1: 80, y1: 80)

    @Test("the median of the box core reads 2 m through 30 % outliers at 8 m and 20 % holes")
    func robustMedian() throws {
        let meters = try #require(DepthSampling.standard.medianMeters(in: box, imageWidth: 100, imageHeight: 100,
                                                                      depth: depthWithOutliers()))
        #expect(abs(meters - 2) < 0.05)
        // The whole box (core fraction 1) still reads the object: the outliers are only in the core.
        let whole = try DepthSampling(coreFraction: 1)
        #expect(abs(try #require(whole.medianMeters(in: box, imageWidth: 100, imageHeight: 100, depth: depthWithOutliers())) - 2) < 0.05)
    }

    @Test("with 60 % outliers the median follows them: the test above can fail")
    func medianBreaks() throws {
        let meters = try #require(DepthSampling.standard.medianMeters(
            in: box, imageWidth: 100, imageHeight: 100, depth: depthWithOutliers(outlierShare: 0.6, holeShare: 0.1)))
        #expect(meters > 7)
    }

    @Test("too few valid readings give no depth, and the locator falls back to geometry")
    func tooFewReadings() throws {
        var depth = depthWithOutliers()
        for i in depth.metersOrNaN.indices { depth.metersOrNaN[i] = .nan }
        depth.metersOrNaN[50 * 100 + 50] = 2
        #expect(DepthSampling.standard.medianMeters(in: box, imageWidth: 100, imageHeight: 100, depth: depth) == nil)

        let sizes = try ObjectSizeTable(sizes: ["chair": ObjectSize(heightMeters: 0.85, relativeSpread: 0.2,
                                                                     standsOnFloor: false, source: "test")])
        let locator = ObjectLocator(camera: try camera(), sizes: sizes)
        let frame = Frame(image: RGBImage(width: 100, height: 100, filledWith: (0, 0, 0)), depth: depth, sourceName: "test")
        let object = try #require(try locator.locate([detection("chair", box)], in: frame).first)
        #expect(object.distance.method == .objectSize)
        #expect(abs(try #require(object.distance.meters) - 525 * 0.85 / 60) < 1e-9)
    }

    @Test("a frame's depth wins over geometry and is reported as measured depth, or as a depth model when the map came from one")
    func locatorPrefersDepth() throws {
        let sizes = try ObjectSizeTable(sizes: ["chair": ObjectSize(heightMeters: 0.85, relativeSpread: 0.2,
                                                                     standsOnFloor: false, source: "test")])
        let frame = Frame(image: RGBImage(width: 100, height: 100, filledWith: (0, 0, 0)), depth: depthWithOutliers(), sourceName: "test")
        let measured = try #require(try ObjectLocator(camera: try camera(), sizes: sizes).locate([detection("chair", box)], in: frame).first)
        #expect(measured.distance.method == .measuredDepth)
        #expect(abs(try #require(measured.distance.meters) - 2) < 0.05)
        var modelFrame = frame
        modelFrame.depth?.origin = .model
        let modelled = try #require(try ObjectLocator(camera: try camera(), sizes: sizes, depthModelRelativeError: 0.2)
            .locate([detection("chair", box)], in: modelFrame).first)
        #expect(modelled.distance.method == .depthModel && modelled.distance.relativeError == 0.2)
    }

    @Test("a depth map half the image's size is read at scaled coordinates")
    func scaledDepth() throws {
        // 50 × 50 map: 3 m inside columns/rows 10..<40 (the image's 20..<80), 9 m elsewhere.
        var values = [Float](repeating: 9, count: 50 * 50)
        for y in 10..<40 { for x in 10..<40 { values[y * 50 + x] = 3 } }
        let depth = DepthMap(width: 50, height: 50, metersOrNaN: values)
        #expect(DepthSampling.standard.medianMeters(in: box, imageWidth: 100, imageHeight: 100, depth: depth) == 3)
    }

    @Test("a tiny box reads the pixel under its centre, which is too few readings")
    func tinyBox() {
        let depth = DepthMap(width: 10, height: 10, metersOrNaN: [Float](repeating: 1, count: 100))
        #expect(DepthSampling.standard.medianMeters(in: BoundingBox(x0: 5, y0: 5, x1: 5.4, y1: 5.4),
                                                    imageWidth: 10, imageHeight: 10, depth: depth) == nil)
        let lenient = try? DepthSampling(minimumValidPixels: 1)
        #expect(lenient?.medianMeters(in: BoundingBox(x0: 5, y0: 5, x1: 5.4, y1: 5.4), imageWidth: 10, imageHeight: 10, depth: depth) == 1)
    }

    @Test("located objects encode to JSON with the distance in meters, or null when unknown")
    func json() throws {
        let sizes = try ObjectSizeTable(sizes: ["chair": ObjectSize(heightMeters: 0.85, relativeSpread: 0.2,
                                                                     standsOnFloor: false, source: "test")])
        let objects = try ObjectLocator(camera: try camera(), sizes: sizes)
            .locate([detection("chair", BoundingBox(x0: 100, y0: 100, x1: 160, y1: 160)),
                     detection("kite", BoundingBox(x0: 300, y0: 100, x1: 360, y1: 160))], imageWidth: 640, imageHeight: 480)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(objects)
        let array = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(array[0]["label"] as? String == "chair")
        #expect(abs((array[0]["distanceMeters"] as? Double ?? 0) - 525 * 0.85 / 60) < 1e-9)
        #expect(array[0]["distanceMethod"] as? String == "objectSize")
        #expect(array[0]["direction"] as? String == "slightly left")
        #expect(array[1]["distanceMeters"] is NSNull)
        #expect(array[1]["distanceMethod"] is NSNull)
        #expect(array[1]["angleDegrees"] is Double)
        #expect(try JSONDecoder().decode([LocatedObject].self, from: data) == objects)
    }
}

