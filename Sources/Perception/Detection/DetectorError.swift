import AssistCore

/// Why the detector could not run on a model or an image, as one sentence.
public enum DetectorError: UserFacingError, Equatable {
    case unknownOutputLayout(model: String, shape: [Int], classCount: Int?)
    case unsupportedInput(model: String, shape: [Int])
    case labelsUnreadable(path: String)
    case emptyImage(source: String)
    case invalidSetting(name: String, value: String, allowed: String)
    /// The model cannot run at another input size (its export fixed sizes inside the graph).
    case cannotResize(model: String, size: String, reason: String)

    public var userMessage: String {
        switch self {
        case .unknownOutputLayout(let model, let shape, let classCount):
            let shapeText = shape.map(String.init).joined(separator: "×")
            let classes = classCount.map { " for \($0) classes" } ?? ""
            return "The model \(model) has an output of shape \(shapeText), which is not a YOLOv5, YOLOv8 or YOLO11 detection layout\(classes)."
        case .unsupportedInput(let model, let shape):
            return "The model \(model) expects an input of shape \(shape.map(String.init).joined(separator: "×")); AssistiveKit needs one image input of 1×3×height×width."
        case .labelsUnreadable(let path):
            return "The labels file \(path) could not be read; it should hold one class name per line."
        case .emptyImage(let source):
            return "The image \(source) has no pixels."
        case .invalidSetting(let name, let value, let allowed):
            return "The \(name) \(value) is not allowed; it must be \(allowed)."
        case .cannotResize(let model, let size, let reason):
            return "The model \(model) cannot run at the input size \(size): \(reason); use its square input shape."
        }
    }
}
