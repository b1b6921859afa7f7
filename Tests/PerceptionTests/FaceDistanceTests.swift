import Testing
@testable import Perception

@Suite("Faces are as far away as the people they sit on")
struct FaceDistanceTests {
    func object(_ label: String, _ box: BoundingBox, meters: Double?, method: DistanceMethod = .objectSize, angle: Double = 0) -> LocatedObject {
        LocatedObject(detection: Detection(classIndex: label == "face" ? 80 : 0, label: label, confidence: 0.8, box: box),
                      direction: Direction(angleDegrees: angle, elevationDegrees: 0),
                      distance: meters.map { DistanceEstimate(meters: $0, method: method, relativeError: 0.1) } ?? .unknown)
    }

    /// As zidane.jpg measured: faces estimated at 1.2 and 1.4 m by their own size on men 3.1 and
    /// 3.3 m away. Fails if a face keeps its own distance on a person, or takes the wrong person's.
    @Test("a face on a person's head takes that person's distance and keeps its own direction")
    func faceTakesItsPersonsDistance() {
        let left = object("person", BoundingBox(x0: 124, y0: 201, x1: 1132, y1: 713), meters: 3.3, method: .combined)
        let right = object("person", BoundingBox(x0: 744, y0: 40, x1: 1148, y1: 710), meters: 3.1, method: .combined)
        let leftFace = object("face", BoundingBox(x0: 581, y0: 279, x1: 709, y1: 407), meters: 1.4, angle: 0.3)
        let rightFace = object("face", BoundingBox(x0: 923, y0: 113, x1: 1071, y1: 261), meters: 1.2, angle: 21)
        let faces = FaceDetector.atTheirPeoplesDistance([leftFace, rightFace], people: [left, right])
        #expect(faces[0].distance == left.distance)
        #expect(faces[1].distance == right.distance)
        #expect(faces[0].direction == leftFace.direction && faces[1].direction == rightFace.direction)
        #expect(faces.map(\.detection) == [leftFace.detection, rightFace.detection])
    }

    @Test("a face on nobody, or on a person of unknown distance, keeps its own distance")
    func faceWithoutAPersonKeepsItsOwn() {
        let unknown = object("person", BoundingBox(x0: 0, y0: 0, x1: 200, y1: 600), meters: nil)
        let onUnknown = object("face", BoundingBox(x0: 60, y0: 20, x1: 140, y1: 100), meters: 1.5)
        let alone = object("face", BoundingBox(x0: 500, y0: 20, x1: 580, y1: 100), meters: 2.5)
        let faces = FaceDetector.atTheirPeoplesDistance([onUnknown, alone], people: [unknown])
        #expect(faces == [onUnknown, alone])
    }
}
