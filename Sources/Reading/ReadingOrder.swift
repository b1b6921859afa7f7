import Foundation
import Perception

/// Puts accepted words into lines and blocks in the order a sighted reader takes them: words of a
/// line left to right, lines of a block top to bottom, blocks top to bottom with blocks side by side
/// (columns, separate signs) left to right. Works on boxes alone, so words from several
/// recognition passes, or from regions read one by one, come together in one order.
enum ReadingOrder {
    /// A word joins a line when it overlaps the line vertically by this share of the smaller height…
    static let lineVerticalOverlap: Float = 0.5
    /// …and the gap to the line's last word is at most this many word heights (wider is another column or sign).
    static let wordGapHeights: Float = 2.0
    /// A line joins a block when the gap above it is at most this many line heights…
    static let blockGapHeights: Float = 1.2
    /// …and it overlaps the block horizontally by this share of the narrower one.
    static let blockHorizontalOverlap: Float = 0.3

    static func blocks(of words: [ReadWord]) -> [ReadBlock] {
        var lines: [[ReadWord]] = []
        for word in words.sorted(by: { $0.box.x0 < $1.box.x0 }) {
            var bestLine: Int?
            var bestGap = Float.infinity
            for (index, line) in lines.enumerated() {
                guard let last = line.last else { continue }
                let height = max(word.box.height, last.box.height, 1)
                let ratio = word.box.height / max(last.box.height, 1)
                guard ratio > 0.5 && ratio < 2 else { continue }
                let overlap = min(word.box.y1, last.box.y1) - max(word.box.y0, last.box.y0)
                guard overlap >= lineVerticalOverlap * min(word.box.height, last.box.height) else { continue }
                let gap = word.box.x0 - last.box.x1
                guard gap <= wordGapHeights * height, gap > -0.5 * height else { continue }
                if gap < bestGap { bestGap = gap; bestLine = index }
            }
            if let bestLine { lines[bestLine].append(word) } else { lines.append([word]) }
        }
        var blocks: [[ReadLine]] = []
        for line in lines.map(ReadLine.init(words:)).sorted(by: { $0.box.y0 < $1.box.y0 }) {
            let box = line.box
            var joined = false
            for index in blocks.indices {
                guard let last = blocks[index].last else { continue }
                let lastBox = last.box
                let height = max(box.height, lastBox.height, 1)
                let ratio = box.height / max(lastBox.height, 1)
                guard ratio > 0.5 && ratio < 2 else { continue }
                let gap = box.y0 - lastBox.y1
                guard gap <= blockGapHeights * height, gap > -0.5 * height else { continue }
                let blockBox = ReadWord.union(blocks[index].map(\.box))
                let overlap = min(box.x1, blockBox.x1) - max(box.x0, blockBox.x0)
                guard overlap >= blockHorizontalOverlap * min(box.width, blockBox.width) else { continue }
                blocks[index].append(line)
                joined = true
                break
            }
            if !joined { blocks.append([line]) }
        }
        // Greedy order: the block that starts highest, unless another block beside it (starting
        // before it ends) lies further left: that one is the earlier column or sign.
        var remaining = blocks.map(ReadBlock.init(lines:))
        var ordered: [ReadBlock] = []
        while !remaining.isEmpty {
            let top = remaining.indices.min { remaining[$0].box.y0 < remaining[$1].box.y0 }!
            let topBox = remaining[top].box
            let beside = remaining.indices.filter { remaining[$0].box.y0 < topBox.y1 && remaining[$0].box.x1 <= topBox.x0 + 0.1 * topBox.width }
            let next = beside.min { remaining[$0].box.x0 < remaining[$1].box.x0 } ?? top
            ordered.append(remaining.remove(at: next))
        }
        return ordered
    }

    /// Words read by several passes over the same picture, one per place: where boxes overlap,
    /// the more confident reading wins (so each binarisation and segmentation contributes the
    /// words it read best).
    static func mostConfident(_ candidates: [ReadWord]) -> [ReadWord] {
        let ranked = candidates.sorted {
            $0.confidence != $1.confidence ? $0.confidence > $1.confidence : $0.text.count > $1.text.count
        }
        var kept: [ReadWord] = []
        for word in ranked {
            let clashes = kept.contains { other in
                let w = max(0, min(word.box.x1, other.box.x1) - max(word.box.x0, other.box.x0))
                let h = max(0, min(word.box.y1, other.box.y1) - max(word.box.y0, other.box.y0))
                return w * h > 0.3 * min(max(word.box.area, 1), max(other.box.area, 1))
            }
            if !clashes { kept.append(word) }
        }
        return kept
    }
}
