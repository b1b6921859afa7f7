import AssistCore

/// Writes an `RGBImage` into a region of a planar float tensor (NCHW, batch 1), resized
/// bilinearly and normalised per channel: `value = byte * scale[c] + offset[c]`.
///
/// Bilinear with half-pixel centres and the result rounded to 8 bits before normalising, as
/// OpenCV's `INTER_LINEAR` on a `uint8` image does, so our tensors match reference pipelines'.
/// The detector's letterbox and the depth model's stretch both go through here.
struct PlanarResampler {
    /// Where the picture goes inside the tensor.
    var tensorWidth: Int
    var tensorHeight: Int
    var regionX: Int
    var regionY: Int
    var regionWidth: Int
    var regionHeight: Int
    /// Per-channel multiplier and offset applied to the 0…255 value.
    var scale: (Float, Float, Float) = (1 / 255, 1 / 255, 1 / 255)
    var offset: (Float, Float, Float) = (0, 0, 0)

    func resample(_ image: RGBImage, into tensor: UnsafeMutableBufferPointer<Float>) {
        precondition(tensor.count == 3 * tensorWidth * tensorHeight)
        guard let out = tensor.baseAddress, regionWidth > 0, regionHeight > 0, !image.isEmpty else { return }
        // One thread on purpose: splitting the rows over GCD's threads gained nothing here and made
        // the inference that follows ~13 ms slower (measured on 2 cores), as OpenVINO's own
        // workers, still spinning from the previous frame, competed with them.
        if image.width == regionWidth && image.height == regionHeight {
            copyRows(0..<regionHeight, of: image, into: out)
        } else {
            resampleRows(0..<regionHeight, of: image, into: out)
        }
    }

    /// Same size: no interpolation, only the planar layout and the normalisation.
    private func copyRows(_ rows: Range<Int>, of image: RGBImage, into out: UnsafeMutablePointer<Float>) {
        let plane = tensorWidth * tensorHeight
        let (s0, s1, s2) = scale, (o0, o1, o2) = offset
        image.pixels.withUnsafeBufferPointer { source in
            guard let src = source.baseAddress else { return }
            for y in rows {
                let row = src + y * image.width * 3
                let red = out + (regionY + y) * tensorWidth + regionX, green = red + plane, blue = green + plane
                for x in 0..<regionWidth {
                    red[x] = Float(row[3 * x]) * s0 + o0
                    green[x] = Float(row[3 * x + 1]) * s1 + o1
                    blue[x] = Float(row[3 * x + 2]) * s2 + o2
                }
            }
        }
    }

    private func resampleRows(_ rows: Range<Int>, of image: RGBImage, into out: UnsafeMutablePointer<Float>) {
        let plane = tensorWidth * tensorHeight
        let xScale = Float(image.width) / Float(regionWidth)
        let yScale = Float(image.height) / Float(regionHeight)
        // Column taps are the same for every row: compute them once.
        var leftOffset = [Int](repeating: 0, count: regionWidth)
        var rightOffset = [Int](repeating: 0, count: regionWidth)
        var rightWeight = [Float](repeating: 0, count: regionWidth)
        for x in 0..<regionWidth {
            let (i0, i1, w) = Self.taps(destination: x, scale: xScale, sourceCount: image.width)
            leftOffset[x] = i0 * 3; rightOffset[x] = i1 * 3; rightWeight[x] = w
        }
        let (s0, s1, s2) = scale, (o0, o1, o2) = offset
        image.pixels.withUnsafeBufferPointer { source in
            guard let src = source.baseAddress else { return }
            leftOffset.withUnsafeBufferPointer { left in
            rightOffset.withUnsafeBufferPointer { right in
            rightWeight.withUnsafeBufferPointer { weights in
                for y in rows {
                    let (j0, j1, wy) = Self.taps(destination: y, scale: yScale, sourceCount: image.height)
                    let top = src + j0 * image.width * 3
                    let bottom = src + j1 * image.width * 3
                    let red = out + (regionY + y) * tensorWidth + regionX, green = red + plane, blue = green + plane
                    for x in 0..<regionWidth {
                        let l = left[x], r = right[x], wx = weights[x]
                        red[x] = Self.blend(top, bottom, l, r, wx, wy) * s0 + o0
                        green[x] = Self.blend(top, bottom, l + 1, r + 1, wx, wy) * s1 + o1
                        blue[x] = Self.blend(top, bottom, l + 2, r + 2, wx, wy) * s2 + o2
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
        // Values are 0…255, so truncating v + 0.5 rounds; Float.rounded() is a libm call per value
        // on baseline x86-64, which made this loop several times slower.
        return Float(Int32(upper + (lower - upper) * wy + 0.5))
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
