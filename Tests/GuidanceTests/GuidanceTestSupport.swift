import Foundation
import TestSupport
import Perception
@testable import Guidance

/// A located object as the locator would hand it on: `degrees` right of ahead, `meters` away (nil = unknown).
func located(_ label: String, meters: Double?, degrees: Double = 0, elevationDegrees: Double = 0,
             confidence: Float = 0.9) -> LocatedObject {
    LocatedObject(
        detection: Detection(classIndex: 0, label: label, confidence: confidence,
                             box: BoundingBox(x0: 0, y0: 0, x1: 10, y1: 10)),
        direction: Direction(angleDegrees: degrees, elevationDegrees: elevationDegrees),
        distance: meters.map { DistanceEstimate(meters: $0, method: .combined, relativeError: 0.2) } ?? .unknown)
}

/// The checked-in English file, read straight from the source tree.
func englishFileData() throws -> Data {
    try Data(contentsOf: SharedFiles.checkout.appendingPathComponent("Sources/Guidance/Templates/en.json"))
}
