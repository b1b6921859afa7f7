/// How a YOLO export lays out its one output tensor, recognised from the shape.
public enum YOLOOutputLayout: Sendable, Equatable, CustomStringConvertible {
    /// YOLOv8 / YOLO11: `1 × (4 + C) × N`, rows are cx, cy, w, h, then C class scores (already
    /// sigmoid, no objectness). Anchor-major in memory: row r, anchor a is at `r * N + a`.
    case boxesThenScoresPerRow(classCount: Int, anchorCount: Int)
    /// YOLOv5: `1 × N × (5 + C)`, each anchor a row of cx, cy, w, h, objectness, C class scores;
    /// a class's confidence is objectness × class score.
    case anchorRowsWithObjectness(classCount: Int, anchorCount: Int)

    public var classCount: Int {
        switch self {
        case .boxesThenScoresPerRow(let c, _), .anchorRowsWithObjectness(let c, _): return c
        }
    }

    public var description: String {
        switch self {
        case .boxesThenScoresPerRow(let c, let n): return "YOLOv8/YOLO11 (1×\(4 + c)×\(n))"
        case .anchorRowsWithObjectness(let c, let n): return "YOLOv5 (1×\(n)×\(5 + c))"
        }
    }

    /// Recognises the layout from the output shape; `knownClassCount` (from the metadata)
    /// settles shapes that would fit both. Returns nil for a shape no supported export has.
    public static func recognise(shape: [Int], knownClassCount: Int?) -> YOLOOutputLayout? {
        guard shape.count == 3, shape[0] == 1, shape[1] > 0, shape[2] > 0 else { return nil }
        let rows = shape[1], columns = shape[2]
        let asV8 = rows > 4 ? YOLOOutputLayout.boxesThenScoresPerRow(classCount: rows - 4, anchorCount: columns) : nil
        let asV5 = columns > 5 ? YOLOOutputLayout.anchorRowsWithObjectness(classCount: columns - 5, anchorCount: rows) : nil
        if let known = knownClassCount {
            if rows == 4 + known, let asV8 { return asV8 }
            if columns == 5 + known, let asV5 { return asV5 }
            return nil
        }
        // Without metadata: anchors (thousands) outnumber attributes (tens) in every export.
        return rows < columns ? asV8 : asV5
    }
}

/// A detection candidate in detector-input pixels, before NMS.
struct Candidate {
    var box: BoundingBox
    var score: Float
    var classIndex: Int
}

extension YOLOOutputLayout {
    /// Every (anchor, class) above `threshold` — one class per anchor (its best), or every class
    /// above the threshold when `multiLabel` (as Ultralytics' validation does).
    func candidates(from output: UnsafeBufferPointer<Float>, threshold: Float, multiLabel: Bool) -> [Candidate] {
        var result: [Candidate] = []
        switch self {
        case .boxesThenScoresPerRow(let classCount, let anchors):
            // Scan class rows in memory order (cache-friendly), keeping each anchor's best score.
            if multiLabel {
                for c in 0..<classCount {
                    let row = (4 + c) * anchors
                    for a in 0..<anchors where output[row + a] > threshold {
                        result.append(Candidate(box: box(output, anchor: a, stride: anchors), score: output[row + a], classIndex: c))
                    }
                }
                return result
            }
            var bestScore = [Float](repeating: -1, count: anchors)
            var bestClass = [Int](repeating: 0, count: anchors)
            bestScore.withUnsafeMutableBufferPointer { best in
                bestClass.withUnsafeMutableBufferPointer { cls in
                    for c in 0..<classCount {
                        let row = output.baseAddress! + (4 + c) * anchors
                        for a in 0..<anchors where row[a] > best[a] {
                            best[a] = row[a]; cls[a] = c
                        }
                    }
                }
            }
            for a in 0..<anchors where bestScore[a] > threshold {
                result.append(Candidate(box: box(output, anchor: a, stride: anchors), score: bestScore[a], classIndex: bestClass[a]))
            }
        case .anchorRowsWithObjectness(let classCount, let anchors):
            let width = 5 + classCount
            for a in 0..<anchors {
                let base = a * width
                let objectness = output[base + 4]
                guard objectness > threshold else { continue }
                let box = BoundingBox(centerX: output[base], centerY: output[base + 1],
                                      width: output[base + 2], height: output[base + 3])
                if multiLabel {
                    for c in 0..<classCount where objectness * output[base + 5 + c] > threshold {
                        result.append(Candidate(box: box, score: objectness * output[base + 5 + c], classIndex: c))
                    }
                } else {
                    var best = 0
                    for c in 1..<max(classCount, 1) where output[base + 5 + c] > output[base + 5 + best] { best = c }
                    let score = objectness * output[base + 5 + best]
                    if score > threshold { result.append(Candidate(box: box, score: score, classIndex: best)) }
                }
            }
        }
        return result
    }

    private func box(_ output: UnsafeBufferPointer<Float>, anchor a: Int, stride: Int) -> BoundingBox {
        BoundingBox(centerX: output[a], centerY: output[stride + a],
                    width: output[2 * stride + a], height: output[3 * stride + a])
    }
}

/// Greedy non-maximum suppression per class, as torchvision's `nms` over class-offset boxes:
/// highest score first, a box is dropped when its IoU with a kept box of the same class is
/// strictly greater than `iouThreshold`.
func nonMaximumSuppression(_ candidates: [Candidate], iouThreshold: Float, classAware: Bool,
                           maximumCount: Int) -> [Candidate] {
    // Ultralytics caps the candidates before NMS (max_nms = 30000) to bound the quadratic cost.
    let sorted = candidates.sorted { $0.score > $1.score }.prefix(30_000)
    var kept: [Candidate] = []
    kept.reserveCapacity(min(sorted.count, maximumCount))
    for candidate in sorted {
        if kept.count >= maximumCount { break }
        let suppressed = kept.contains { other in
            (!classAware || other.classIndex == candidate.classIndex)
                && other.box.intersectionOverUnion(with: candidate.box) > iouThreshold
        }
        if !suppressed { kept.append(candidate) }
    }
    return kept
}
