/// An axis-aligned box in pixels of the original (decoded, orientation-corrected) image.
/// `x0, y0` is the top-left corner, `x1, y1` the bottom-right; x grows right, y grows down.
public struct BoundingBox: Sendable, Equatable, Hashable, Codable {
    public var x0: Float
    public var y0: Float
    public var x1: Float
    public var y1: Float

    public init(x0: Float, y0: Float, x1: Float, y1: Float) {
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
    }

    public init(centerX: Float, centerY: Float, width: Float, height: Float) {
        self.init(x0: centerX - width / 2, y0: centerY - height / 2, x1: centerX + width / 2, y1: centerY + height / 2)
    }

    public var width: Float { max(0, x1 - x0) }
    public var height: Float { max(0, y1 - y0) }
    public var centerX: Float { (x0 + x1) / 2 }
    public var centerY: Float { (y0 + y1) / 2 }
    public var area: Float { width * height }

    /// Intersection over union, 0…1; 0 for boxes with no area.
    public func intersectionOverUnion(with other: BoundingBox) -> Float {
        let overlapWidth = max(0, min(x1, other.x1) - max(x0, other.x0))
        let overlapHeight = max(0, min(y1, other.y1) - max(y0, other.y0))
        let intersection = overlapWidth * overlapHeight
        let union = area + other.area - intersection
        return union > 0 ? intersection / union : 0
    }

    /// The box limited to an image of the given size.
    public func clipped(width imageWidth: Int, height imageHeight: Int) -> BoundingBox {
        let w = Float(imageWidth), h = Float(imageHeight)
        return BoundingBox(x0: min(max(x0, 0), w), y0: min(max(y0, 0), h),
                           x1: min(max(x1, 0), w), y1: min(max(y1, 0), h))
    }
}

/// One object the detector found: its class, how sure it is, and where it is in the image.
public struct Detection: Sendable, Equatable, Codable {
    /// Index into the model's class list (COCO-80 for the default model).
    public var classIndex: Int
    /// The class name from the model's metadata, e.g. "person".
    public var label: String
    /// The class score, 0…1.
    public var confidence: Float
    public var box: BoundingBox

    public init(classIndex: Int, label: String, confidence: Float, box: BoundingBox) {
        self.classIndex = classIndex
        self.label = label
        self.confidence = confidence
        self.box = box
    }
}
