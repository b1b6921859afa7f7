import AssistCore
import Foundation
import Testing
@testable import Perception

@Suite("Direction")
struct GeometryDirectionTests {
    /// A box whose centre is `degrees` right of the axis with fx = 525, cx = 320.
    func box(atDegrees degrees: Double, centerY: Float = 240) -> BoundingBox {
        let u = Float(320 + 525 * tan(degrees * .pi / 180))
        return BoundingBox(centerX: u, centerY: centerY, width: 20, height: 40)
    }

    func locate(_ box: BoundingBox, pitchDownDegrees: Double = 0) throws -> LocatedObject {
        let sizes = try ObjectSizeTable(sizes: [:])
        let locator = ObjectLocator(camera: try camera(pitchDownDegrees: pitchDownDegrees), sizes: sizes)
        return try #require(try locator.locate([detection("cup", box)], imageWidth: 640, imageHeight: 480).first)
    }

    @Test("box centres give atan((u − cx) / fx), negative to the left")
    func angleFromBox() throws {
        let object = try locate(BoundingBox(x0: 100, y0: 200, x1: 140, y1: 280))
        #expect(abs(object.direction.angleDegrees - atan((120.0 - 320) / 525) * 180 / .pi) < 1e-9)
        #expect(object.direction.angleDegrees < 0)
    }

    @Test("angles map to left / slightly left / ahead / slightly right / right at 10° and 25°",
          arguments: [(-30.0, HorizontalDirection.left), (-25.01, .left), (-24.9, .slightlyLeft), (-15, .slightlyLeft),
                      (-10.01, .slightlyLeft), (-9.9, .ahead), (0, .ahead), (9.9, .ahead), (10.01, .slightlyRight),
                      (24.9, .slightlyRight), (25.01, .right), (30, .right)])
    func bands(degrees: Double, expected: HorizontalDirection) throws {
        #expect(try locate(box(atDegrees: degrees)).direction.horizontal == expected)
    }

    @Test("band edges belong to the outer band")
    func bandEdges() {
        let bands = DirectionBands.standard
        #expect(bands.horizontal(angleDegrees: 10) == .slightlyRight)
        #expect(bands.horizontal(angleDegrees: -25) == .left)
    }

    @Test("clock positions: 12 ahead, 30° per hour, clamped to 9 … 3",
          arguments: [(0.0, 12), (14, 12), (16, 1), (-16, 11), (30, 1), (-44, 11), (-46, 10), (60, 2), (90, 3),
                      (-90, 9), (-120, 9), (170, 3)])
    func clock(degrees: Double, hour: Int) {
        #expect(Direction.clockHour(angleDegrees: degrees) == hour)
    }

    @Test("a box 20° right of the axis is at 1 o'clock")
    func clockFromBox() throws {
        #expect(try locate(box(atDegrees: 20)).direction.clockHour == 1)
    }

    @Test("objects well above the horizon are high up, well below low down, near it neither")
    func vertical() throws {
        // 24° above and below the axis: beyond the 20° limit, and still inside the 480-row picture.
        let high = try locate(BoundingBox(centerX: 320, centerY: Float(240 - 525 * tan(24 * Double.pi / 180)), width: 20, height: 10))
        #expect(high.direction.vertical == .highUp)
        let low = try locate(BoundingBox(centerX: 320, centerY: Float(240 + 525 * tan(24 * Double.pi / 180)), width: 20, height: 10))
        #expect(low.direction.vertical == .lowDown)
        #expect(try locate(box(atDegrees: 0, centerY: 300)).direction.vertical == .level)
    }

    @Test("a camera tilted down 15° sees the image centre 15° below the horizon")
    func pitchMovesTheHorizon() throws {
        let object = try locate(box(atDegrees: 0), pitchDownDegrees: 15)
        #expect(abs(object.direction.elevationDegrees + 15) < 1e-9)
        // Tilted 25° down, the image centre is "low down".
        #expect(try locate(box(atDegrees: 0), pitchDownDegrees: 25).direction.vertical == .lowDown)
    }

    @Test("bands that overlap or exceed 90° are rejected")
    func badBands() {
        #expect(throws: DirectionBandsError.self) { try DirectionBands(aheadWithinDegrees: 30, slightlyWithinDegrees: 20) }
        #expect(throws: DirectionBandsError.self) { try DirectionBands(verticalBeyondDegrees: 0) }
        #expect(throws: Never.self) { try DirectionBands(aheadWithinDegrees: 5, slightlyWithinDegrees: 15) }
    }
}
