import AssistCore
import Foundation

/// How a camera stored a picture relative to upright: the EXIF Orientation tag (0x0112).
///
/// Phones store the sensor's rows as they came and write this tag instead of rotating the pixels;
/// each case is named by what has to be done to the stored pixels to show them upright. The raw
/// values are the tag's (EXIF 2.32, table 6).
enum ExifOrientation: Int, Sendable {
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
        guard let number = Int(exifTagValue.trimmingCharacters(in: .whitespaces)) else { return nil }
        self.init(rawValue: number)
    }

    /// The orientation a display matrix describes (AV_FRAME_DATA_DISPLAYMATRIX: 3×3, row-major).
    /// FFmpeg 5.1 derives it from the EXIF tag; only the signs of the 2×2 part matter for the
    /// eight orientations. The table is what FFmpeg 5.1 attaches for each tag value (seen with
    /// `ffprobe -show_frames` on JPEGs carrying tags 1 to 8).
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

    /// The upright size of a picture stored `width` by `height`.
    func uprightSize(storedWidth width: Int, storedHeight height: Int) -> (width: Int, height: Int) {
        swapsWidthAndHeight ? (height, width) : (width, height)
    }

    /// The upright picture made from `stored`, in one pass over the pixels.
    func uprightImage(fromStored stored: RGBImage) -> RGBImage {
        let size = uprightSize(storedWidth: stored.width, storedHeight: stored.height)
        guard self != .upright, !stored.isEmpty else { return RGBImage(width: size.width, height: size.height, pixels: stored.pixels) }
        let count = size.width * size.height * 3
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            stored.pixels.withUnsafeBufferPointer { band in
                placeUpright(band: band, firstRow: 0, storedWidth: stored.width, storedHeight: stored.height, into: output)
            }
            initialized = count
        }
        return RGBImage(width: size.width, height: size.height, pixels: pixels)
    }

    /// Copies rows `firstRow...` of a stored RGB24 picture (`band`, whole rows) to where they
    /// belong in the upright picture `output` (`3 * width * height` bytes).
    func placeUpright(band: UnsafeBufferPointer<UInt8>, firstRow: Int, storedWidth width: Int, storedHeight height: Int,
                      into output: UnsafeMutableBufferPointer<UInt8>) {
        let bandRows = band.count / (width * 3)
        precondition(firstRow >= 0 && firstRow + bandRows <= height && output.count >= width * height * 3,
                     "the band must lie inside the stored picture and the output must hold it all")
        guard let source = band.baseAddress, let target = output.baseAddress else { return }
        // Stored pixel (x, y) goes to upright pixel index start + x * alongStoredRow + y * alongStoredColumn.
        // For the quarter turns the upright picture is `height` pixels wide.
        let (start, alongStoredRow, alongStoredColumn): (Int, Int, Int)
        switch self {
        case .upright: (start, alongStoredRow, alongStoredColumn) = (0, 1, width)
        case .flipHorizontally: (start, alongStoredRow, alongStoredColumn) = (width - 1, -1, width)
        case .rotate180: (start, alongStoredRow, alongStoredColumn) = (width * height - 1, -1, -width)
        case .flipVertically: (start, alongStoredRow, alongStoredColumn) = ((height - 1) * width, 1, -width)
        case .transpose: (start, alongStoredRow, alongStoredColumn) = (0, height, 1)
        case .rotate90Clockwise: (start, alongStoredRow, alongStoredColumn) = (height - 1, height, -1)
        case .transverse: (start, alongStoredRow, alongStoredColumn) = (width * height - 1, -height, -1)
        case .rotate90CounterClockwise: (start, alongStoredRow, alongStoredColumn) = ((width - 1) * height, -height, 1)
        }
        // Column tiles keep the rows a quarter turn writes to in cache while the band's rows
        // are read; without them every pixel of a 12-megapixel photo misses the cache.
        let tileColumns = 32
        let step = alongStoredRow * 3
        for tileLeft in stride(from: 0, to: width, by: tileColumns) {
            let tileWidth = min(tileColumns, width - tileLeft)
            for row in 0..<bandRows {
                var from = source + (row * width + tileLeft) * 3
                // In bounds by construction: the table maps the stored rectangle onto the upright one.
                var to = target + (start + tileLeft * alongStoredRow + (firstRow + row) * alongStoredColumn) * 3
                for _ in 0..<tileWidth {
                    to[0] = from[0]
                    to[1] = from[1]
                    to[2] = from[2]
                    from += 3
                    to += step
                }
            }
        }
    }
}
