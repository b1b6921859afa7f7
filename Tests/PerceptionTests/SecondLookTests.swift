import AssistCore
import Testing
@testable import Perception

/// A still picture's doubtful detections count only when the mirrored picture confirms them.
@Suite("A second look at a still picture confirms doubtful detections")
struct SecondLookTests {
    static let look = SecondLook.mirrored
    static func cup(_ confidence: Float, _ x0: Float, _ x1: Float) -> Detection {
        Detection(classIndex: 41, label: "cup", confidence: confidence, box: BoundingBox(x0: x0, y0: 100, x1: x1, y1: 200))
    }

    @Test("a cup at 0.55 on the left of a 640-wide picture counts when the mirror finds a cup at 0.7 on its right, at the same place mirrored")
    func confirmedByTheMirror() {
        let counted = Self.look.confirmed([Self.cup(0.55, 40, 140)], mirrored: [Self.cup(0.7, 500, 600)], imageWidth: 640, threshold: 0.6)
        #expect(counted.map(\.confidence) == [0.55])
    }

    @Test("it does not count when the mirror's cup is elsewhere, is something else, or is itself doubtful")
    func notConfirmed() {
        let doubtful = [Self.cup(0.55, 40, 140)]
        // Same place without mirroring back is elsewhere.
        #expect(Self.look.confirmed(doubtful, mirrored: [Self.cup(0.7, 40, 140)], imageWidth: 640, threshold: 0.6).isEmpty)
        let bowl = Detection(classIndex: 45, label: "bowl", confidence: 0.9, box: BoundingBox(x0: 500, y0: 100, x1: 600, y1: 200))
        #expect(Self.look.confirmed(doubtful, mirrored: [bowl], imageWidth: 640, threshold: 0.6).isEmpty)
        #expect(Self.look.confirmed(doubtful, mirrored: [Self.cup(0.59, 500, 600)], imageWidth: 640, threshold: 0.6).isEmpty)
    }

    @Test("a sure detection counts without a second look; one below the floor never does")
    func sureAndBelowTheFloor() {
        let counted = Self.look.confirmed([Self.cup(0.8, 300, 400), Self.cup(0.45, 40, 140)],
                                          mirrored: [Self.cup(0.9, 500, 600)], imageWidth: 640, threshold: 0.6)
        #expect(counted.map(\.confidence) == [0.8])
    }

    @Test("mirroring moves column 0 to the last column and keeps rows")
    func mirroring() {
        let image = RGBImage(width: 3, height: 2, pixels: [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6])
        #expect(image.mirroredLeftToRight().pixels == [3, 3, 3, 2, 2, 2, 1, 1, 1, 6, 6, 6, 5, 5, 5, 4, 4, 4])
    }
}
