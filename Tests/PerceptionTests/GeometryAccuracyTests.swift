import AssistCore
import Foundation
import TestSupport
import Testing
@testable import Perception

@Suite("Distance accuracy against depth")
struct GeometryAccuracyTests {
    func object(_ box: BoundingBox, meters: Double?, method: DistanceMethod = .objectSize) -> LocatedObject {
        LocatedObject(detection: detection("chair", box), direction: Direction(angleDegrees: 0, elevationDegrees: 0),
                      distance: meters.map { DistanceEstimate(meters: $0, method: method, relativeError: 0.2) } ?? .unknown)
    }

    /// 200 × 100 map: 2 m in the left half, 4 m in the right half, holes in the top-left corner.
    var twoPlanes: DepthMap {
        var values = [Float](repeating: 0, count: 200 * 100)
        for y in 0..<100 {
            for x in 0..<200 { values[y * 200 + x] = x < 100 ? 2 : 4 }
        }
        for y in 0..<30 { for x in 0..<30 { values[y * 200 + x] = .nan } }
        return DepthMap(width: 200, height: 100, metersOrNaN: values)
    }

    @Test("errors of 0.2 m on 2 m and 1 m on 4 m give a mean of 0.6 m and 17.5 %")
    func meanErrors() throws {
        let located = [
            object(BoundingBox(x0: 30, y0: 30, x1: 90, y1: 90), meters: 2.2),
            object(BoundingBox(x0: 110, y0: 30, x1: 190, y1: 90), meters: 3.0),
        ]
        let report = try #require(DistanceAccuracy.compare(located: located, depth: twoPlanes))
        #expect(report.count == 2)
        #expect(abs(report.meanAbsoluteErrorMeters - 0.6) < 1e-6)
        #expect(abs(report.meanRelativeError - 0.175) < 1e-6)
    }

    @Test("unknown distances, depth-measured objects and boxes over holes are left out")
    func exclusions() throws {
        let located = [
            object(BoundingBox(x0: 110, y0: 30, x1: 190, y1: 90), meters: 5.0),
            object(BoundingBox(x0: 30, y0: 30, x1: 90, y1: 90), meters: nil),
            object(BoundingBox(x0: 30, y0: 30, x1: 90, y1: 90), meters: 2, method: .measuredDepth),
            object(BoundingBox(x0: 0, y0: 0, x1: 30, y1: 30), meters: 9),
        ]
        let report = try #require(DistanceAccuracy.compare(located: located, depth: twoPlanes))
        #expect(report.count == 1)
        #expect(abs(report.meanAbsoluteErrorMeters - 1.0) < 1e-6)
        #expect(DistanceAccuracy.compare(located: [], depth: twoPlanes) == nil)
    }

    @Test("boxes from a larger image are scaled onto the depth map")
    func scaled() throws {
        let located = [object(BoundingBox(x0: 220, y0: 60, x1: 380, y1: 180), meters: 4.4)]
        let report = try #require(DistanceAccuracy.compare(located: located, depth: twoPlanes, imageWidth: 400, imageHeight: 200))
        #expect(abs(report.meanRelativeError - 0.1) < 1e-6)
    }

    @Test("the TUM and SUN depth frames parse to the medians MODELS.md gives, and a 10 % error reads as 10 %",
          arguments: [("TUM_depth_mm.pgm", 2.415, 0.808), ("SUN_depth_mm.pgm", 2.723, 0.818)])
    func realDepthFrames(file: String, medianMeters: Double, validFraction: Double) throws {
        let depth = try loadDepthMillimeterPGM(SharedFiles.data("depth/\(file)"))
        #expect(depth.width == 640 && depth.height == 480)
        #expect(abs(depth.validFraction - validFraction) < 0.001)
        let wholeFrame = try DepthSampling(coreFraction: 1, minimumValidPixels: 1, minimumValidFraction: 0)
        let median = try #require(wholeFrame.medianMeters(in: BoundingBox(x0: 0, y0: 0, x1: 640, y1: 480),
                                                          imageWidth: 640, imageHeight: 480, depth: depth))
        #expect(abs(median - medianMeters) < 0.001)

        // A grid of boxes whose "geometric" estimate is 10 % beyond the depth camera's reading.
        var located: [LocatedObject] = []
        for row in 0..<4 {
            for column in 0..<6 {
                let box = BoundingBox(x0: Float(column * 100 + 20), y0: Float(row * 110 + 20),
                                      x1: Float(column * 100 + 100), y1: Float(row * 110 + 120))
                guard let reference = DepthSampling.standard.medianMeters(in: box, imageWidth: 640, imageHeight: 480, depth: depth)
                else { continue }
                located.append(object(box, meters: reference * 1.1))
            }
        }
        let report = try #require(DistanceAccuracy.compare(located: located, depth: depth))
        #expect(report.count >= 12)
        #expect(abs(report.meanRelativeError - 0.1) < 1e-6)
    }
}
