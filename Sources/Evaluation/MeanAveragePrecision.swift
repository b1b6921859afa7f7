import Perception

/// Collects detections and ground truth image by image and computes detection accuracy exactly as
/// Ultralytics' `yolo val` does (`DetectionValidator` + `match_predictions` + `ap_per_class`):
/// mAP50-95 over the ten IoU thresholds 0.50, 0.55, …, 0.95, and mAP50.
///
/// Boxes must be in the pixels of the original image, as Ultralytics compares them; the evaluator
/// clips both detections and labels to the image first, as Ultralytics' `scale_boxes` does.
public struct MeanAveragePrecision: Sendable {
    /// The ten IoU thresholds, computed as `torch.linspace(0.5, 0.95, 10)` computes them in Float32
    /// (first half `start + step·i`, second half `end − step·(9 − i)`).
    public static let iouThresholds: [Float] = {
        let start: Float = 0.5, end: Float = 0.95, steps = 10
        let step = (end - start) / Float(steps - 1)
        return (0..<steps).map { i in i < steps / 2 ? start + step * Float(i) : end - step * Float(steps - 1 - i) }
    }()

    /// One detection after matching: bit `t` of `correct` is set when it is a true positive at
    /// `iouThresholds[t]`.
    struct MatchedDetection: Sendable {
        var confidence: Float
        var classIndex: Int
        var correct: UInt16
    }

    private(set) var detections: [MatchedDetection] = []
    /// Ground-truth objects per class.
    private(set) var instancesPerClass: [Int: Int] = [:]
    /// Images that contain at least one object of the class.
    private(set) var imagesPerClass: [Int: Int] = [:]
    /// Class names seen on detections, for the report.
    private(set) var namesSeen: [Int: String] = [:]
    public private(set) var imageCount = 0

    public init() {}

    /// Adds one image: everything the detector reported and every labelled object.
    ///
    /// Detections are put in order of falling confidence first (a stable sort), the order Ultralytics'
    /// NMS hands them to the matcher; matching depends on it.
    public mutating func add(detections imageDetections: [Detection], groundTruth: [GroundTruthObject]) {
        imageCount += 1
        for object in groundTruth { instancesPerClass[object.classIndex, default: 0] += 1 }
        for classIndex in Set(groundTruth.map(\.classIndex)) { imagesPerClass[classIndex, default: 0] += 1 }

        let sorted = Self.sortedByConfidence(imageDetections)
        for detection in sorted where namesSeen[detection.classIndex] == nil {
            namesSeen[detection.classIndex] = detection.label
        }
        let correct = Self.matchPredictions(sorted, groundTruth)
        for (detection, isCorrect) in zip(sorted, correct) {
            detections.append(MatchedDetection(confidence: detection.confidence, classIndex: detection.classIndex, correct: isCorrect))
        }
    }

    /// The accuracy over every image added so far. `classNames[i]` names class `i` in the report;
    /// classes it does not cover take the label seen on their detections.
    public func accuracy(classNames: [String] = []) -> DetectionAccuracy {
        let result = AveragePrecisionPerClass(detections: detections, instancesPerClass: instancesPerClass)
        let classes = result.classes.enumerated().map { row, classIndex in
            ClassAccuracy(
                classIndex: classIndex,
                name: classIndex < classNames.count ? classNames[classIndex] : namesSeen[classIndex],
                imageCount: imagesPerClass[classIndex] ?? 0,
                instanceCount: instancesPerClass[classIndex] ?? 0,
                precision: result.precision[row], recall: result.recall[row],
                averagePrecision50: result.averagePrecision[row][0],
                averagePrecision50to95: NumPyArithmetic.mean(result.averagePrecision[row]))
        }
        return DetectionAccuracy(
            meanAveragePrecision50to95: result.meanAveragePrecision50to95,
            meanAveragePrecision50: result.meanAveragePrecision50,
            precision: result.meanPrecision, recall: result.meanRecall,
            imageCount: imageCount, instanceCount: instancesPerClass.values.reduce(0, +),
            detectionCount: detections.count, classes: classes)
    }

    static func sortedByConfidence(_ detections: [Detection]) -> [Detection] {
        detections.enumerated()
            .sorted { $0.element.confidence != $1.element.confidence ? $0.element.confidence > $1.element.confidence : $0.offset < $1.offset }
            .map(\.element)
    }

    /// Intersection over union as Ultralytics' `box_iou` computes it in Float32, with 1e-7 added to
    /// the union. Kept apart from `BoundingBox.intersectionOverUnion` (no epsilon, clamped sizes)
    /// because matching must reproduce Ultralytics bit for bit at the thresholds.
    static func ultralyticsIoU(_ groundTruth: BoundingBox, _ detection: BoundingBox) -> Float {
        let overlapWidth = max(min(groundTruth.x1, detection.x1) - max(groundTruth.x0, detection.x0), 0)
        let overlapHeight = max(min(groundTruth.y1, detection.y1) - max(groundTruth.y0, detection.y0), 0)
        let intersection = overlapWidth * overlapHeight
        let groundTruthArea = (groundTruth.x1 - groundTruth.x0) * (groundTruth.y1 - groundTruth.y0)
        let detectionArea = (detection.x1 - detection.x0) * (detection.y1 - detection.y0)
        return intersection / (groundTruthArea + detectionArea - intersection + Float(1e-7))
    }

    /// Ultralytics' `match_predictions` (default, non-SciPy branch), per threshold: the candidate
    /// pairs are those with IoU ≥ threshold and the same class; sorted by IoU descending, each
    /// detection keeps its best pair (`np.unique` on detections); the survivors, now in detection
    /// order, keep for each ground truth the pair with the lowest detection index (`np.unique` on
    /// labels) — the earliest, most confident detection, not the one with the highest IoU.
    ///
    /// A detection with the same IoU to two ground truths keeps the later one: that is what a stable
    /// ascending argsort reversed with `[::-1]` gives (NumPy's insertion sort for up to 16 pairs).
    /// NumPy builds with SIMD sorting may order such exact ties differently.
    static func matchPredictions(_ detections: [Detection], _ groundTruth: [GroundTruthObject]) -> [UInt16] {
        var correct = [UInt16](repeating: 0, count: detections.count)
        guard !detections.isEmpty, !groundTruth.isEmpty else { return correct }
        // L×D, zero where the classes differ (`iou * correct_class`).
        let iou: [[Float]] = groundTruth.map { object in
            detections.map { $0.classIndex == object.classIndex ? ultralyticsIoU(object.box, $0.box) : 0 }
        }
        for (t, threshold) in iouThresholds.enumerated() {
            // Step 1: each detection's best ground truth at this threshold; `>=` keeps the later one on a tie.
            var bestLabel = [Int](repeating: -1, count: detections.count)
            for d in detections.indices {
                var best: Float = -1
                for l in groundTruth.indices where iou[l][d] >= threshold && iou[l][d] >= best {
                    best = iou[l][d]
                    bestLabel[d] = l
                }
            }
            // Step 2: each ground truth goes to the lowest-index detection that chose it.
            var taken = [Bool](repeating: false, count: groundTruth.count)
            for d in detections.indices where bestLabel[d] >= 0 && !taken[bestLabel[d]] {
                taken[bestLabel[d]] = true
                correct[d] |= 1 << UInt16(t)
            }
        }
        return correct
    }
}
