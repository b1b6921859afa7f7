import AssistCore

/// How an image is fitted into the detector's square input: scaled by `scale` to keep its
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
    /// Resizing is bilinear with half-pixel centres and the result rounded to 8 bits, as OpenCV's
    /// `INTER_LINEAR` on a `uint8` image does, so the tensor matches the reference pipeline's.
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

        // Column taps are the same for every row: compute them once.
        let xScale = Float(sourceWidth) / Float(scaledWidth)
        let yScale = Float(sourceHeight) / Float(scaledHeight)
        var leftOffset = [Int](repeating: 0, count: scaledWidth)
        var rightOffset = [Int](repeating: 0, count: scaledWidth)
        var rightWeight = [Float](repeating: 0, count: scaledWidth)
        for x in 0..<scaledWidth {
            let (i0, i1, w) = Self.taps(destination: x, scale: xScale, sourceCount: sourceWidth)
            leftOffset[x] = i0 * 3; rightOffset[x] = i1 * 3; rightWeight[x] = w
        }
        let inverse255: Float = 1 / 255
        image.pixels.withUnsafeBufferPointer { source in
            guard let src = source.baseAddress else { return }
            leftOffset.withUnsafeBufferPointer { left in
            rightOffset.withUnsafeBufferPointer { right in
            rightWeight.withUnsafeBufferPointer { weights in
                for y in 0..<scaledHeight {
                    let (j0, j1, wy) = Self.taps(destination: y, scale: yScale, sourceCount: sourceHeight)
                    let top = src + j0 * sourceWidth * 3
                    let bottom = src + j1 * sourceWidth * 3
                    let rowStart = (padTop + y) * targetWidth + padLeft
                    let red = out + rowStart, green = red + plane, blue = green + plane
                    for x in 0..<scaledWidth {
                        let l = left[x], r = right[x], wx = weights[x]
                        red[x] = Self.blend(top, bottom, l, r, wx, wy) * inverse255
                        green[x] = Self.blend(top, bottom, l + 1, r + 1, wx, wy) * inverse255
                        blue[x] = Self.blend(top, bottom, l + 2, r + 2, wx, wy) * inverse255
                    }
                }
            }}}
        }
    }

    /// One channel of one output pixel: bilinear blend of four source bytes, rounded to 8 bits.
    @inline(__always)
    static func blend(_ top: UnsafePointer<UInt8>, _ bottom: UnsafePointer<UInt8>,
                      _ left: Int, _ right: Int, _ wx: Float, _ wy: Float) -> Float {
        let upper = Float(top[left]) + (Float(top[right]) - Float(top[left])) * wx
        let lower = Float(bottom[left]) + (Float(bottom[right]) - Float(bottom[left])) * wx
        return (upper + (lower - upper) * wy).rounded()
    }

    /// The two source samples around destination index `d` and the weight of the second one,
    /// with half-pixel centres and edges clamped (OpenCV's convention).
    @inline(__always)
    static func taps(destination d: Int, scale: Float, sourceCount: Int) -> (Int, Int, Float) {
        let position = max(0, (Float(d) + 0.5) * scale - 0.5)
        let lower = min(Int(position), sourceCount - 1)
        let upper = min(lower + 1, sourceCount - 1)
        return (lower, upper, position - Float(lower))
    }
}
