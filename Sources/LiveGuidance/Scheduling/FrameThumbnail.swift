import AssistCore

/// A frame shrunk to a small grid of mean brightnesses: what the analysis schedule compares to
/// tell a still scene from one where something moved, at a cost far below one detection
/// (one pixel in four is read on a 640×480 frame, against 30–50 ms of inference).
public struct FrameThumbnail: Sendable, Equatable {
    public static let columns = 32
    public static let rows = 24
    /// Mean luma per cell (0–255), rows top to bottom.
    public let cellLuma: [UInt8]

    public init(_ image: RGBImage) {
        let columns = Self.columns, rows = Self.rows
        var sums = [Int](repeating: 0, count: columns * rows)
        var counts = [Int](repeating: 0, count: columns * rows)
        if !image.isEmpty {
            // Every second pixel of every second row on a 640×480 frame (cells of 20×20 pixels,
            // each mean resting on 100 samples: camera noise averages out, and a zoom's texture
            // does not alias as it did at one pixel in 16); every pixel of a small picture.
            let step = max(1, min(image.width / columns, image.height / rows) / 10)
            let cellOfColumn = stride(from: 0, to: image.width, by: step).map { min(columns - 1, $0 * columns / image.width) }
            image.pixels.withUnsafeBufferPointer { pixels in
                for y in stride(from: 0, to: image.height, by: step) {
                    let rowStart = min(rows - 1, y * rows / image.height) * columns
                    var i = y * image.width * 3
                    for column in cellOfColumn {
                        // ITU-R BT.601 luma in 8-bit fixed point.
                        sums[rowStart + column] += (77 * Int(pixels[i]) + 150 * Int(pixels[i + 1]) + 29 * Int(pixels[i + 2])) >> 8
                        counts[rowStart + column] += 1
                        i += step * 3
                    }
                }
            }
        }
        cellLuma = zip(sums, counts).map { sum, count in count > 0 ? UInt8(sum / count) : 0 }
    }

    /// The share of cells (0–1) whose brightness differs from `other`'s by more than
    /// `thresholdLevels`: a person stepping into view changes a patch of cells strongly; noise
    /// and compression change every cell a little.
    public func changedFraction(since other: FrameThumbnail, thresholdLevels: Int) -> Double {
        guard other.cellLuma.count == cellLuma.count, !cellLuma.isEmpty else { return 1 }
        var changed = 0
        for index in cellLuma.indices where abs(Int(cellLuma[index]) - Int(other.cellLuma[index])) > thresholdLevels {
            changed += 1
        }
        return Double(changed) / Double(cellLuma.count)
    }
}
