import AssistCore

/// How a camera stored a picture relative to upright: the EXIF Orientation tag (0x0112).
///
/// Phones store the sensor's rows as they came and write this tag instead of rotating the pixels;
/// each case is named by what has to be done to the stored pixels to show them upright. The raw
/// values are the tag's (EXIF 2.32, table 6).
enum ExifOrientation: Int, Sendable, CaseIterable {
    case upright = 1
    case flipHorizontally = 2
    case rotate180 = 3
    case flipVertically = 4
    /// Mirror across the top-left to bottom-right diagonal.
    case transpose = 5
    case rotate90Clockwise = 6
    /// Mirror across the top-right to bottom-left diagonal.
    case transverse = 7
    case rotate90CounterClockwise = 8

    /// The tag's value as FFmpeg 5.1's mjpeg decoder writes it into frame metadata under the key
    /// "Orientation": the number right-aligned in five characters ("    6").
    init?(exifTagValue: String) {
        guard let number = Int(exifTagValue.trimmingSpaces) else { return nil }
        self.init(rawValue: number)
    }

    /// The orientation a display matrix describes (AV_FRAME_DATA_DISPLAYMATRIX: 3×3, row-major).
    /// FFmpeg 5.1 derives it from the EXIF tag; only the signs of the 2×2 part matter for the
    /// eight orientations, so the table below is the one FFmpeg's `ff_exif` conversion produces.
    init?(displayMatrix matrix: [Int32]) {
        guard matrix.count == 9 else { return nil }
        let signs = [matrix[0], matrix[1], matrix[3], matrix[4]].map { $0.signum() }
        switch signs {
        case [1, 0, 0, 1]: self = .upright
        case [-1, 0, 0, 1]: self = .flipHorizontally
        case [-1, 0, 0, -1]: self = .rotate180
        case [1, 0, 0, -1]: self = .flipVertically
        case [0, 1, 1, 0]: self = .transpose
        case [0, 1, -1, 0]: self = .rotate90Clockwise
        case [0, -1, -1, 0]: self = .transverse
        case [0, -1, 1, 0]: self = .rotate90CounterClockwise
        default: return nil
        }
    }

    var swapsWidthAndHeight: Bool { rawValue >= 5 }

    /// The upright picture made from `stored`, in one pass over the pixels.
    func uprightImage(fromStored stored: RGBImage) -> RGBImage {
        guard self != .upright else { return stored }
        let (width, height) = (stored.width, stored.height)
        let (outputWidth, outputHeight) = swapsWidthAndHeight ? (height, width) : (width, height)
        // Upright pixel (x, y) comes from stored pixel index start + x * alongRow + y * alongColumn.
        let last = width * height - 1, lastRowStart = (height - 1) * width
        let (start, alongRow, alongColumn): (Int, Int, Int)
        switch self {
        case .upright: (start, alongRow, alongColumn) = (0, 1, width)
        case .flipHorizontally: (start, alongRow, alongColumn) = (width - 1, -1, width)
        case .rotate180: (start, alongRow, alongColumn) = (last, -1, -width)
        case .flipVertically: (start, alongRow, alongColumn) = (lastRowStart, 1, -width)
        case .transpose: (start, alongRow, alongColumn) = (0, width, 1)
        case .rotate90Clockwise: (start, alongRow, alongColumn) = (lastRowStart, -width, 1)
        case .transverse: (start, alongRow, alongColumn) = (last, -width, -1)
        case .rotate90CounterClockwise: (start, alongRow, alongColumn) = (width - 1, width, -1)
        }
        let count = outputWidth * outputHeight * 3
        // Tiles keep both the rows written and the stored columns read (for the quarter turns)
        // in cache; row by row, a quarter turn of a 12-megapixel photo misses the cache on every pixel.
        let tileSide = 32
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            stored.pixels.withUnsafeBufferPointer { source in
                guard let target = output.baseAddress, let origin = source.baseAddress else { return }
                let step = alongRow * 3
                for tileTop in stride(from: 0, to: outputHeight, by: tileSide) {
                    let tileBottom = min(tileTop + tileSide, outputHeight)
                    for tileLeft in stride(from: 0, to: outputWidth, by: tileSide) {
                        let tileWidth = min(tileLeft + tileSide, outputWidth) - tileLeft
                        for y in tileTop..<tileBottom {
                            // In bounds by construction: the table above maps the output
                            // rectangle onto the stored one exactly.
                            var from = origin + (start + y * alongColumn + tileLeft * alongRow) * 3
                            var to = target + (y * outputWidth + tileLeft) * 3
                            for _ in 0..<tileWidth {
                                to[0] = from[0]
                                to[1] = from[1]
                                to[2] = from[2]
                                to += 3
                                from += step
                            }
                        }
                    }
                }
            }
            initialized = count
        }
        return RGBImage(width: outputWidth, height: outputHeight, pixels: pixels)
    }
}

private extension String {
    var trimmingSpaces: Substring {
        let trimmedStart = drop { $0 == " " }
        return trimmedStart.dropLast(trimmedStart.reversed().prefix { $0 == " " }.count)
    }
}
