import AssistCore

/// How an image is fitted into the detector's input (square or the minimal rectangle): scaled by `scale` to keep its
/// aspect ratio, centred, and padded with grey (114) — Ultralytics' `LetterBox`, with its exact
/// rounding, so our boxes land where the reference implementation's do.
public struct Letterbox: Sendable, Equatable {
    public let sourceWidth: Int
    public let sourceHeight: Int
    public let targetWidth: Int
    public let targetHeight: Int
    public let scale: Float
    public let scaledWidth: Int
    public let scaledHeight: Int
    public let padLeft: Int
    public let padTop: Int

    /// Ultralytics pads with this grey level on every channel.
    public static let padValue: Float = 114

    public init(sourceWidth: Int, sourceHeight: Int, targetWidth: Int, targetHeight: Int) {
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.targetWidth = targetWidth
        self.targetHeight = targetHeight
        let scale = min(Double(targetHeight) / Double(sourceHeight), Double(targetWidth) / Double(sourceWidth))
        self.scale = Float(scale)
        // Python's round() rounds halves to even; Ultralytics relies on it.
        scaledWidth = Int((Double(sourceWidth) * scale).rounded(.toNearestOrEven))
        scaledHeight = Int((Double(sourceHeight) * scale).rounded(.toNearestOrEven))
        let halfPadX = Double(targetWidth - scaledWidth) / 2
        let halfPadY = Double(targetHeight - scaledHeight) / 2
        padLeft = Int((halfPadX - 0.1).rounded(.toNearestOrEven))
        padTop = Int((halfPadY - 0.1).rounded(.toNearestOrEven))
    }

    /// Maps a box from detector-input pixels back to source-image pixels, clipped to the image
    /// (Ultralytics' `scale_boxes`, which recomputes the padding from the gain).
    public func boxInSource(_ box: BoundingBox) -> BoundingBox {
        let gain = scale
        let padX = Float((Double(Float(targetWidth) - Float(sourceWidth) * gain) / 2 - 0.1).rounded(.toNearestOrEven))
        let padY = Float((Double(Float(targetHeight) - Float(sourceHeight) * gain) / 2 - 0.1).rounded(.toNearestOrEven))
        return BoundingBox(x0: (box.x0 - padX) / gain, y0: (box.y0 - padY) / gain,
                           x1: (box.x1 - padX) / gain, y1: (box.y1 - padY) / gain)
            .clipped(width: sourceWidth, height: sourceHeight)
    }

    /// Writes the letterboxed image into `tensor` as planar RGB floats 0…1 (NCHW, batch 1).
    ///
    /// The picture itself is resized by `PlanarResampler` (OpenCV `INTER_LINEAR` semantics).
    public func fill(_ tensor: UnsafeMutableBufferPointer<Float>, from image: RGBImage) {
        precondition(image.width == sourceWidth && image.height == sourceHeight)
        precondition(tensor.count == 3 * targetWidth * targetHeight)
        let plane = targetWidth * targetHeight
        let pad = Self.padValue / 255
        guard let out = tensor.baseAddress else { return }

        // Grey borders: rows above and below, then columns left and right of the picture.
        for channel in 0..<3 {
            let base = out + channel * plane
            for y in 0..<targetHeight where y < padTop || y >= padTop + scaledHeight {
                (base + y * targetWidth).update(repeating: pad, count: targetWidth)
            }
            for y in padTop..<(padTop + scaledHeight) {
                let row = base + y * targetWidth
                if padLeft > 0 { row.update(repeating: pad, count: padLeft) }
                let right = targetWidth - padLeft - scaledWidth
                if right > 0 { (row + padLeft + scaledWidth).update(repeating: pad, count: right) }
            }
        }

        PlanarResampler(tensorWidth: targetWidth, tensorHeight: targetHeight, regionX: padLeft, regionY: padTop,
                        regionWidth: scaledWidth, regionHeight: scaledHeight)
            .resample(image, into: tensor)
    }
}
