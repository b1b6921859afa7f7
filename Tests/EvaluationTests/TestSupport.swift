import AssistCore
import Foundation
@testable import Evaluation
import Perception

/// Paths of shared test data: `<checkout>/../shared/data`.
enum TestData {
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let coco128 = checkout.appendingPathComponent("../shared/data/coco128").standardizedFileURL
    static let referenceScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Reference/ultralytics_map.py")

    /// A fresh temporary folder, removed by the caller.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("evaluation-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

func detection(_ classIndex: Int, _ confidence: Float, _ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float) -> Detection {
    Detection(classIndex: classIndex, label: "class \(classIndex)", confidence: confidence, box: BoundingBox(x0: x0, y0: y0, x1: x1, y1: y1))
}

func object(_ classIndex: Int, _ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float) -> GroundTruthObject {
    GroundTruthObject(classIndex: classIndex, box: BoundingBox(x0: x0, y0: y0, x1: x1, y1: y1))
}


/// Runs `python3` with the arguments and returns its standard output; throws on a non-zero exit.
func runPython(_ arguments: [String]) throws -> Data {
    struct PythonFailed: Error, CustomStringConvertible { var description: String }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3"] + arguments
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw PythonFailed(description: "python3 \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): \(errorText)")
    }
    return data
}
