import AssistCore
import Foundation
import TestSupport
@testable import Evaluation
import Perception

/// The Ultralytics-based reference the mAP is checked against (run with python3).
let referenceScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Reference/ultralytics_map.py")

func detection(_ classIndex: Int, _ confidence: Float, _ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float) -> Detection {
    Detection(classIndex: classIndex, label: "class \(classIndex)", confidence: confidence, box: BoundingBox(x0: x0, y0: y0, x1: x1, y1: y1))
}

func object(_ classIndex: Int, _ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float) -> GroundTruthObject {
    GroundTruthObject(classIndex: classIndex, box: BoundingBox(x0: x0, y0: y0, x1: x1, y1: y1))
}


/// Runs `python3` with the arguments and returns its standard output; throws on a non-zero exit.
func runPython(_ arguments: [String]) throws -> Data {
    let result = try Program.run(Program.named("python3"), arguments)
    guard result.status == 0 else {
        throw ToolFailure(message: "python3 \(arguments.joined(separator: " ")) exited with \(result.status): \(result.standardError)")
    }
    return Data(result.standardOutput.utf8)
}
