import AssistCore
import Foundation

/// An 8-bit grey picture, rows top to bottom: what text recognition works on.
public struct GrayImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height` bytes, 0 black, 255 white.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "GrayImage needs width*height bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Luma as ITU-R BT.601 weighs it (0.299 R + 0.587 G + 0.114 B), in integer arithmetic.
    public init(_ image: RGBImage) {
        let count = image.width * image.height
        let grey = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            image.pixels.withUnsafeBufferPointer { rgb in
                for i in 0..<count {
                    let r = UInt32(rgb[3 * i]), g = UInt32(rgb[3 * i + 1]), b = UInt32(rgb[3 * i + 2])
                    out[i] = UInt8((299 * r + 587 * g + 114 * b + 500) / 1000)
                }
            }
            initialized = count
        }
        self.init(width: image.width, height: image.height, pixels: grey)
    }

    public var isEmpty: Bool { width == 0 || height == 0 }

    public subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }

    /// The picture resized by `factor` with bilinear interpolation (enlarging small text, shrinking for analysis).
    public func scaled(by factor: Double) -> GrayImage {
        let newWidth = max(1, Int((Double(width) * factor).rounded()))
        let newHeight = max(1, Int((Double(height) * factor).rounded()))
        guard !isEmpty, newWidth != width || newHeight != height else { return self }
        let xRatio = Double(width) / Double(newWidth), yRatio = Double(height) / Double(newHeight)
        var out = [UInt8](repeating: 0, count: newWidth * newHeight)
        pixels.withUnsafeBufferPointer { src in
            for y in 0..<newHeight {
                let sy = max(0, min(Double(height - 1), (Double(y) + 0.5) * yRatio - 0.5))
                let y0 = Int(sy), y1 = min(y0 + 1, height - 1)
                let fy = sy - Double(y0)
                for x in 0..<newWidth {
                    let sx = max(0, min(Double(width - 1), (Double(x) + 0.5) * xRatio - 0.5))
                    let x0 = Int(sx), x1 = min(x0 + 1, width - 1)
                    let fx = sx - Double(x0)
                    let top = Double(src[y0 * width + x0]) * (1 - fx) + Double(src[y0 * width + x1]) * fx
                    let bottom = Double(src[y1 * width + x0]) * (1 - fx) + Double(src[y1 * width + x1]) * fx
                    out[y * newWidth + x] = UInt8(max(0, min(255, (top * (1 - fy) + bottom * fy).rounded())))
                }
            }
        }
        return GrayImage(width: newWidth, height: newHeight, pixels: out)
    }

    /// The picture turned clockwise by `quarterTurns` × 90°.
    public func rotatedClockwise(quarterTurns: Int) -> GrayImage {
        let turns = ((quarterTurns % 4) + 4) % 4
        guard turns != 0, !isEmpty else { return self }
        let (newWidth, newHeight) = turns == 2 ? (width, height) : (height, width)
        var out = [UInt8](repeating: 0, count: pixels.count)
        for y in 0..<height {
            for x in 0..<width {
                let (nx, ny): (Int, Int)
                switch turns {
                case 1: (nx, ny) = (height - 1 - y, x)
                case 2: (nx, ny) = (width - 1 - x, height - 1 - y)
                default: (nx, ny) = (y, width - 1 - x)
                }
                out[ny * newWidth + nx] = pixels[y * width + x]
            }
        }
        return GrayImage(width: newWidth, height: newHeight, pixels: out)
    }

    /// The picture turned by a small angle about its centre (positive: clockwise on screen), same
    /// size; corners that come from outside are filled with the picture's median grey so they
    /// form no edges.
    public func rotated(degrees: Double) -> GrayImage {
        guard degrees != 0, !isEmpty else { return self }
        let radians = degrees * .pi / 180
        let c = cos(radians), s = sin(radians)
        let cx = Double(width - 1) / 2, cy = Double(height - 1) / 2
        let fill = medianGrey
        var out = [UInt8](repeating: fill, count: pixels.count)
        for y in 0..<height {
            for x in 0..<width {
                // Inverse mapping: where in the source this output pixel comes from.
                let dx = Double(x) - cx, dy = Double(y) - cy
                let sx = c * dx + s * dy + cx, sy = -s * dx + c * dy + cy
                guard sx >= 0, sy >= 0, sx <= Double(width - 1), sy <= Double(height - 1) else { continue }
                let x0 = Int(sx), y0 = Int(sy)
                let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
                let fx = sx - Double(x0), fy = sy - Double(y0)
                let top = Double(pixels[y0 * width + x0]) * (1 - fx) + Double(pixels[y0 * width + x1]) * fx
                let bottom = Double(pixels[y1 * width + x0]) * (1 - fx) + Double(pixels[y1 * width + x1]) * fx
                out[y * width + x] = UInt8(max(0, min(255, (top * (1 - fy) + bottom * fy).rounded())))
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// The rectangle `x..<x+w`, `y..<y+h`, clipped to the picture.
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> GrayImage {
        let x0 = max(0, min(x, width)), y0 = max(0, min(y, height))
        let x1 = max(x0, min(x + w, width)), y1 = max(y0, min(y + h, height))
        var out: [UInt8] = []
        out.reserveCapacity((x1 - x0) * (y1 - y0))
        for row in y0..<y1 { out.append(contentsOf: pixels[(row * width + x0)..<(row * width + x1)]) }
        return GrayImage(width: x1 - x0, height: y1 - y0, pixels: out)
    }

    var medianGrey: UInt8 {
        var histogram = [Int](repeating: 0, count: 256)
        for p in pixels { histogram[Int(p)] += 1 }
        var seen = 0
        for (value, count) in histogram.enumerated() {
            seen += count
            if seen * 2 >= pixels.count { return UInt8(value) }
        }
        return 255
    }

    /// Otsu's threshold (1979): the grey level that best separates two classes of pixels.
    var otsuThreshold: UInt8 {
        var histogram = [Double](repeating: 0, count: 256)
        for p in pixels { histogram[Int(p)] += 1 }
        let total = Double(pixels.count)
        let sumAll = histogram.enumerated().reduce(0.0) { $0 + Double($1.offset) * $1.element }
        var sumBelow = 0.0, weightBelow = 0.0, best = 0.0, threshold = 127
        for level in 0..<256 {
            weightBelow += histogram[level]
            guard weightBelow > 0 else { continue }
            let weightAbove = total - weightBelow
            guard weightAbove > 0 else { break }
            sumBelow += Double(level) * histogram[level]
            let meanBelow = sumBelow / weightBelow, meanAbove = (sumAll - sumBelow) / weightAbove
            let between = weightBelow * weightAbove * (meanBelow - meanAbove) * (meanBelow - meanAbove)
            if between > best { best = between; threshold = level }
        }
        return UInt8(threshold)
    }
}
