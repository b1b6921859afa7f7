import AssistCore
import Foundation

/// Paths to the read-only models and images in ../shared, found from this file's location.
enum SharedData {
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let root = checkout.deletingLastPathComponent().appendingPathComponent("shared")
    static let irModel = root.appendingPathComponent("models/yolo11n_int8_openvino_model/yolo11n.xml")
    static let onnxModel = root.appendingPathComponent("models/yolo11n_320_int8dyn.onnx")
    static func image(_ name: String) -> URL { root.appendingPathComponent("data/images/\(name)") }
    static func depth(_ name: String) -> URL { root.appendingPathComponent("data/depth/\(name)") }

    /// A scratch folder for files a test makes; removed by the caller.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("assistivekit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
