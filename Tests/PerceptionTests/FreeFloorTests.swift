import AssistCore
import Foundation
import Testing
@testable import Perception

/// A synthetic room seen by a chest camera 1.3 m up, tilted 30° down, 70° lens, 640×480: a grey
/// textured floor, boxes standing on it, a white wall 12 m ahead. Pixels are ray-cast, so every
/// box's foot is exactly where ground-plane geometry puts it.
private struct SyntheticRoom {
    struct Box {
        var forwardMeters: Double
        var lateralFromMeters: Double
        var lateralToMeters: Double
        var heightFromMeters = 0.0
        var heightToMeters = 0.8
        var colour: (UInt8, UInt8, UInt8) = (150, 90, 40)
    }

    static let camera = try! CameraSettings(heightAboveFloorMeters: 1.3, pitchDownDegrees: 30)
    static let width = 640, height = 480
    static let intrinsics = try! camera.intrinsics(imageWidth: width, imageHeight: height)
    var boxes: [Box] = []
    /// Floor-coloured features drawn on the floor: (columns, rows) rectangles of dark colour.
    var floorMarks: [(x: Range<Int>, y: Range<Int>)] = []
    let wallForwardMeters = 12.0

    enum Surface { case floor, wall, box(Box) }

    /// What the ray through pixel (x, y) hits, and its camera-frame depth Z.
    func cast(x: Int, y: Int) -> (z: Double, surface: Surface) {
        let intrinsics = Self.intrinsics
        let pitch = Self.camera.pitchDownDegrees * .pi / 180
        let xRay = (Double(x) + 0.5 - intrinsics.principalPointXPixels) / intrinsics.focalLengthXPixels
        let yRay = (Double(y) + 0.5 - intrinsics.principalPointYPixels) / intrinsics.focalLengthYPixels
        let forward = cos(pitch) - yRay * sin(pitch), down = yRay * cos(pitch) + sin(pitch)
        var nearest = (z: forward > 0 ? wallForwardMeters / forward : 1000, surface: Surface.wall)
        if down > 0, Self.camera.heightAboveFloorMeters / down < nearest.z {
            nearest = (Self.camera.heightAboveFloorMeters / down, .floor)
        }
        for box in boxes where forward > 0 {
            let t = box.forwardMeters / forward
            let lateral = xRay * t, height = Self.camera.heightAboveFloorMeters - down * t
            if t < nearest.z, lateral >= box.lateralFromMeters, lateral <= box.lateralToMeters,
               height >= box.heightFromMeters, height <= box.heightToMeters {
                nearest = (t, .box(box))
            }
        }
        return nearest
    }

    func image() -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: Self.width * Self.height * 3)
        var noiseState: UInt32 = 12345
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                // A fixed linear congruential sequence: ±12 levels of floor texture.
                noiseState = noiseState &* 1_664_525 &+ 1_013_904_223
                let texture = Int(noiseState >> 24) % 25 - 12
                var colour: (Int, Int, Int)
                switch cast(x: x, y: y).surface {
                case .box(let box): colour = (Int(box.colour.0), Int(box.colour.1), Int(box.colour.2))
                case .wall: colour = (235, 235, 240)
                case .floor: colour = (120, 118, 112)
                }
                if floorMarks.contains(where: { $0.x.contains(x) && $0.y.contains(y) }) { colour = (40, 40, 45) }
                let i = (y * Self.width + x) * 3
                pixels[i] = UInt8(clamping: colour.0 + texture)
                pixels[i + 1] = UInt8(clamping: colour.1 + texture)
                pixels[i + 2] = UInt8(clamping: colour.2 + texture)
            }
        }
        return RGBImage(width: Self.width, height: Self.height, pixels: pixels)
    }

    func depth(origin: DepthOrigin = .sensor) -> DepthMap {
        var meters = [Float](repeating: .nan, count: Self.width * Self.height)
        for y in 0..<Self.height {
            for x in 0..<Self.width { meters[y * Self.width + x] = Float(cast(x: x, y: y).z) }
        }
        return DepthMap(width: Self.width, height: Self.height, metersOrNaN: meters, origin: origin)
    }
}

private let detector = FreeFloorDetector(corridor: WalkingCorridor(camera: SyntheticRoom.camera))
private let depthDetector = DepthCorridorObstacle(corridor: WalkingCorridor(camera: SyntheticRoom.camera))

@Suite("Free floor from the colour picture")
struct FreeFloorTests {
    @Test("a box standing 3 m ahead on a uniform floor is the nearest obstacle, at 3 m")
    func boxAhead() throws {
        let room = SyntheticRoom(boxes: [.init(forwardMeters: 3, lateralFromMeters: -0.3, lateralToMeters: 0.3)])
        let result = try detector.detect(in: room.image())
        let meters = try #require(result.nearestObstacleMeters)
        #expect(abs(meters - 3) < 0.06, "\(meters) m")
    }

    @Test("of two boxes in the corridor the nearer one is reported")
    func nearerOfTwo() throws {
        let room = SyntheticRoom(boxes: [.init(forwardMeters: 4, lateralFromMeters: -0.4, lateralToMeters: 0.1),
                                         .init(forwardMeters: 1.8, lateralFromMeters: 0.1, lateralToMeters: 0.4)])
        let meters = try #require(try detector.detect(in: room.image()).nearestObstacleMeters)
        #expect(abs(meters - 1.8) < 0.04, "\(meters) m")
    }

    @Test("a box beside the corridor is not in the way, and an empty floor is free to the range limit")
    func besideTheCorridor() throws {
        let beside = SyntheticRoom(boxes: [.init(forwardMeters: 2, lateralFromMeters: 0.9, lateralToMeters: 1.5)])
        let result = try detector.detect(in: beside.image())
        #expect(result.nearestObstacleMeters == nil)
        #expect(result.columns.contains { $0.forwardMeters != nil && !$0.isInCorridor }, "the box itself is seen, outside")
        #expect(try detector.detect(in: SyntheticRoom().image()).nearestObstacleMeters == nil)
    }

    @Test("a thin seam across the floor and a cable two columns wide are not obstacles")
    func seamsAndCables() throws {
        let room = SyntheticRoom(floorMarks: [(x: 0..<640, y: 300..<302), (x: 318..<320, y: 0..<480)])
        #expect(try detector.detect(in: room.image()).nearestObstacleMeters == nil)
    }

    @Test("the result says which stretch of floor was seen: a level chest camera sees none nearer than 2.5 m")
    func visibleFloor() throws {
        let tilted = try detector.detect(in: SyntheticRoom().image())
        let nearest = try #require(tilted.nearestVisibleFloorMeters)
        // The bottom row's centre: 1.3 / tan(30° + atan(239.5 / 457)) = 0.823 m.
        #expect(abs(nearest - 0.823) < 0.005, "tilted 30°: \(nearest) m")
        #expect(try #require(tilted.farthestExaminedFloorMeters) <= 10)
        let level = try FreeFloorDetector(corridor: WalkingCorridor(camera: .chestWorn)).detect(in: SyntheticRoom().image())
        // fy = 320 / tan 35° = 457 px; the bottom row's centre is 239.5 px below the axis: 1.3 × 457 / 239.5.
        let levelNearest = try #require(level.nearestVisibleFloorMeters)
        #expect(abs(levelNearest - 1.3 * 457.0 / 239.5) < 0.01, "\(levelNearest) m")
        let up = try FreeFloorDetector(corridor: WalkingCorridor(camera: try CameraSettings(pitchDownDegrees: -40))).detect(in: SyntheticRoom().image())
        #expect(up.nearestVisibleFloorMeters == nil && up.nearestObstacleMeters == nil, "a camera looking up sees no floor")
    }

    @Test("the distance of a floor row follows h / tan(pitch + atan((v − cy) / fy))")
    func groundPlaneFormula() throws {
        let corridor = WalkingCorridor(camera: SyntheticRoom.camera)
        let intrinsics = try SyntheticRoom.camera.intrinsics(imageWidth: 640, imageHeight: 480)
        for v in [250.0, 300, 470] {
            let expected = 1.3 / tan(30 * Double.pi / 180 + atan((v - 240) / intrinsics.focalLengthYPixels))
            let point = try #require(corridor.floorPoint(x: 320, y: v, intrinsics: intrinsics))
            #expect(abs(point.forwardMeters - expected) < 1e-9)
            #expect(abs(point.lateralMeters) < 1e-9)
        }
        let level = WalkingCorridor(camera: .chestWorn)
        #expect(level.floorPoint(x: 320, y: 200, intrinsics: intrinsics) == nil, "above the horizon there is no floor")
    }
}

@Suite("Free floor from depth")
struct FreeFloorDepthTests {
    @Test("the floor itself is not an obstacle; a box 2.5 m ahead is, at 2.5 m")
    func boxInDepth() throws {
        #expect(try depthDetector.detect(in: SyntheticRoom().depth()).nearestObstacleMeters == nil)
        let room = SyntheticRoom(boxes: [.init(forwardMeters: 2.5, lateralFromMeters: -0.2, lateralToMeters: 0.5)])
        let result = try depthDetector.detect(in: room.depth(origin: .model))
        let meters = try #require(result.nearestObstacleMeters)
        #expect(abs(meters - 2.5) < 0.01, "\(meters) m")
        #expect(result.origin == .model)
    }

    @Test("a few speckles and holes do not hide or fake an obstacle")
    func speckleAndHoles() throws {
        let room = SyntheticRoom(boxes: [.init(forwardMeters: 3, lateralFromMeters: -0.3, lateralToMeters: 0.3)])
        var depth = room.depth()
        for x in 300..<305 { depth.metersOrNaN[200 * depth.width + x] = 0.6 }   // flying pixels, 0.6 m away
        for i in stride(from: 0, to: depth.metersOrNaN.count, by: 7) { depth.metersOrNaN[i] = .nan }
        let meters = try #require(try depthDetector.detect(in: depth).nearestObstacleMeters)
        #expect(abs(meters - 3) < 0.01, "\(meters) m")
    }

    @Test("something above head height or beside the corridor is not in the way")
    func overheadAndBeside() throws {
        let room = SyntheticRoom(boxes: [.init(forwardMeters: 2, lateralFromMeters: -0.5, lateralToMeters: 0.5,
                                               heightFromMeters: 2.1, heightToMeters: 2.4),
                                         .init(forwardMeters: 1.5, lateralFromMeters: 0.8, lateralToMeters: 1.4)])
        #expect(try depthDetector.detect(in: room.depth()).nearestObstacleMeters == nil)
        // A table top at waist height with nothing under it: in the way, though the floor below is free
        // (the colour method sees floor there; depth does not).
        let tableTop = SyntheticRoom(boxes: [.init(forwardMeters: 2, lateralFromMeters: -0.5, lateralToMeters: 0.5,
                                                   heightFromMeters: 0.9, heightToMeters: 1.0)])
        let meters = try #require(try depthDetector.detect(in: tableTop.depth()).nearestObstacleMeters)
        #expect(abs(meters - 2) < 0.01, "\(meters) m")
    }
}
