/// Which input shape the detector runs a frame at.
///
/// A YOLO export is fully convolutional, so it can run at any size that is a multiple of its
/// largest stride. Letterboxing a 4:3 frame into the model's square spends a quarter of the work
/// on grey padding; the rectangular shape keeps the long side at the model's size and rounds the
/// short side up to the stride, as Ultralytics' own minimal-rectangle letterbox does.
public enum DetectorInputShape: String, Sendable, CaseIterable, Codable {
    /// The shape the model was exported with (640×640 for the default model), whatever the frame.
    case square
    /// The frame's aspect, long side at the model's size, short side rounded up to the stride.
    case rectangular
    /// As `rectangular` with half a stride more before rounding up (640×512 for 4:3, 640×384 for
    /// 16:9), as Ultralytics' rectangular validation batches do: a little more work, and on
    /// coco128 closer to the square input's accuracy (see BENCHMARKS.md).
    case rectangularPadded = "rectangular-padded"

    /// The product's choice: the padded rectangle. On coco128 (f32) it stays within 0.2 mAP50-95
    /// points of `yolo val` for about 20 % less work at 4:3; the minimal rectangle saves a little
    /// more but loses 0.6 points and, in `assist eval distance`, a chair above the announcement
    /// threshold, and a missed object costs a blind user more than a few milliseconds.
    public static let `default`: DetectorInputShape = .rectangularPadded
}

/// A detector input size in pixels (the tensor is 1×3×height×width).
public struct DetectorInputSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)×\(height)" }

    /// YOLO's largest stride (the P5 head): every input side must be a multiple of it.
    public static let stride = 32

    /// The input size for a `frameWidth`×`frameHeight` frame on a model exported at `model`.
    ///
    /// Rectangular: the frame is scaled so its long side is the model's long side, and the short
    /// side (rounded to whole pixels as the letterbox rounds it) is rounded up to the stride, so
    /// the picture fits with less than one stride of padding. 4:3 → 640×480, 16:9 → 640×384,
    /// 3:4 portrait → 480×640 (`rectangularPadded` adds half a stride first: 4:3 → 640×512).
    /// Never larger than the model's square.
    public static func forFrame(width frameWidth: Int, height frameHeight: Int, model: DetectorInputSize,
                                shape: DetectorInputShape) -> DetectorInputSize {
        guard shape != .square, frameWidth > 0, frameHeight > 0 else { return model }
        let extra = shape == .rectangularPadded ? Double(stride) / 2 : 0
        let long = max(model.width, model.height)
        let scale = Double(long) / Double(max(frameWidth, frameHeight))
        func fitted(_ side: Int) -> Int {
            let scaled = Int((Double(side) * scale).rounded(.toNearestOrEven))
            let rounded = Int(((Double(scaled) + extra) / Double(stride)).rounded(.up)) * stride
            return min(long, max(stride, rounded))
        }
        return frameWidth >= frameHeight
            ? DetectorInputSize(width: long, height: fitted(frameHeight))
            : DetectorInputSize(width: fitted(frameWidth), height: long)
    }
}
