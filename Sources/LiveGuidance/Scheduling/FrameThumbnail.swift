import AssistCore

/// A frame shrunk to a small grid of mean brightnesses: what the analysis schedule compares to
/// tell a still scene from one where something moved, at a cost far below one detection
/// (one pixel in four is read; 640×480 is about 0.1 ms against 30–50 ms of inference).
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
            image.pixels.withUnsafeBufferPointer { pixels in
                // Every second pixel of every second row: cells of a 640×480 frame are 20×20
                // pixels, so each mean still rests on 100 samples (camera noise averages out).
                for y in stride(from: 0, to: image.height, by: 2) {
                    let row = min(rows - 1, y * rows / image.height)
                    for x in stride(from: 0, to: image.width, by: 2) {
                        let i = (y * image.width + x) * 3
                        // ITU-R BT.601 luma in 8-bit fixed point.
                        let luma = (77 * Int(pixels[i]) + 150 * Int(pixels[i + 1]) + 29 * Int(pixels[i + 2])) >> 8
                        let cell = row * columns + min(columns - 1, x * columns / image.width)
                        sums[cell] += luma
                        counts[cell] += 1
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
