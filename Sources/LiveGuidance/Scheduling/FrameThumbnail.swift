import AssistCore
import Perception

/// A frame shrunk to a small grid of mean brightnesses: what the analysis schedule compares to
/// tell a still scene from one where something moved, at a cost far below one detection
/// (one pixel in four is read on a 640×480 frame, against 30–50 ms of inference).
public struct FrameThumbnail: Sendable, Equatable {
    public static let columns = 32
    public static let rows = 24
    /// Mean luma per cell (0–255), rows top to bottom.
    public let cellLuma: [UInt8]
    /// The frame's size in pixels, to place detection boxes on the grid.
    public let imageWidth: Int, imageHeight: Int

    public init(_ image: RGBImage) {
        imageWidth = image.width
        imageHeight = image.height
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
        changedFractions(since: other, thresholdLevels: thresholdLevels, passingOver: []).everywhere
    }

    /// The same share over the whole frame, and counting only the cells not marked in
    /// `passedOver` (the same grid; both shares are of the whole frame).
    public func changedFractions(since other: FrameThumbnail, thresholdLevels: Int,
                                 passingOver passedOver: [Bool]) -> (everywhere: Double, elsewhere: Double) {
        guard other.cellLuma.count == cellLuma.count, !cellLuma.isEmpty else { return (1, 1) }
        let masked = passedOver.count == cellLuma.count
        var changed = 0, changedElsewhere = 0
        for index in cellLuma.indices where abs(Int(cellLuma[index]) - Int(other.cellLuma[index])) > thresholdLevels {
            changed += 1
            if !(masked && passedOver[index]) { changedElsewhere += 1 }
        }
        return (Double(changed) / Double(cellLuma.count), Double(changedElsewhere) / Double(cellLuma.count))
    }

    /// How many of the cells marked in `cells` (the same grid) differ from `other`'s by more than
    /// `thresholdLevels`.
    public func changedCells(since other: FrameThumbnail, thresholdLevels: Int, within cells: [Bool]) -> Int {
        guard other.cellLuma.count == cellLuma.count, cells.count == cellLuma.count else { return cells.contains(true) ? 1 : 0 }
        var changed = 0
        for index in cellLuma.indices where cells[index] && abs(Int(cellLuma[index]) - Int(other.cellLuma[index])) > thresholdLevels {
            changed += 1
        }
        return changed
    }

    /// The grid's cells that `boxes` (in the frame's pixels) cover, each box grown by
    /// `widthMargin` of its width on either side and `heightMargin` of its height above and below.
    public func cells(covering boxes: [BoundingBox], widthMargin: Float, heightMargin: Float) -> [Bool] {
        var covered = [Bool](repeating: false, count: Self.columns * Self.rows)
        guard imageWidth > 0, imageHeight > 0 else { return covered }
        let cellWidth = Float(imageWidth) / Float(Self.columns), cellHeight = Float(imageHeight) / Float(Self.rows)
        // Kept within the grid as floats first: a box far outside the frame (or not finite, which
        // the guard below leaves out) must not overflow the conversion to Int. An edge that is
        // not a number (a width overflowing to infinity times a margin of 0) counts as the grid's start.
        func column(_ x: Float) -> Float { x.isNaN ? 0 : min(max(x / cellWidth, 0), Float(Self.columns)) }
        func row(_ y: Float) -> Float { y.isNaN ? 0 : min(max(y / cellHeight, 0), Float(Self.rows)) }
        for box in boxes where [box.x0, box.y0, box.x1, box.y1].allSatisfy(\.isFinite) && box.width > 0 && box.height > 0 {
            let dx = box.width * widthMargin, dy = box.height * heightMargin
            // Cells the grown box overlaps at all.
            let first = (column: Int(column(box.x0 - dx).rounded(.down)), row: Int(row(box.y0 - dy).rounded(.down)))
            let last = (column: min(Self.columns - 1, Int(column(box.x1 + dx).rounded(.up)) - 1),
                        row: min(Self.rows - 1, Int(row(box.y1 + dy).rounded(.up)) - 1))
            guard first.column <= last.column, first.row <= last.row else { continue }
            for row in first.row...last.row {
                for column in first.column...last.column { covered[row * Self.columns + column] = true }
            }
        }
        return covered
    }
}
