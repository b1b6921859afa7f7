/// An 8-bit RGB picture, rows top to bottom, pixels interleaved R, G, B.
///
/// The one frame type every stage shares: Media decodes into it, Perception reads it.
/// It is a value; copies share storage until written (Swift arrays are copy-on-write).
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 3` bytes.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 3,
                     "RGBImage needs width*height*3 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A picture filled with one colour.
    public init(width: Int, height: Int, filledWith rgb: (UInt8, UInt8, UInt8)) {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in stride(from: 0, to: pixels.count, by: 3) {
            pixels[i] = rgb.0; pixels[i + 1] = rgb.1; pixels[i + 2] = rgb.2
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    public var isEmpty: Bool { width == 0 || height == 0 }

    /// The colour at column `x`, row `y`.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = (y * width + x) * 3
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }
}

extension RGBImage {
    /// The picture flipped left to right (column x becomes column width − 1 − x).
    public func mirroredLeftToRight() -> RGBImage {
        var flipped = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { source in
            flipped.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let row = y * width * 3
                    for x in 0..<width {
                        let from = row + x * 3, to = row + (width - 1 - x) * 3
                        target[to] = source[from]; target[to + 1] = source[from + 1]; target[to + 2] = source[from + 2]
                    }
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: flipped)
    }
}
