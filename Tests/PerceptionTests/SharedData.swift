import Foundation
import TestSupport

extension SharedFiles {
    /// The default detector (OpenVINO IR, int8) and its ONNX counterpart, as MODELS.md lists them.
    static let irModel = model("yolo11n_int8_openvino_model/yolo11n.xml")
    static let onnxModel = model("yolo11n_320_int8dyn.onnx")
}
