/// Ultralytics' `ap_per_class` and `compute_ap`: average precision per class and IoU threshold
/// from matched detections, plus precision and recall at the confidence of highest mean F1.
struct AveragePrecisionPerClass {
    /// Classes with ground truth, ascending (`np.unique(target_cls)`); only these are averaged.
    var classes: [Int]
    /// `averagePrecision[row][t]` for `classes[row]` at `MeanAveragePrecision.iouThresholds[t]`.
    var averagePrecision: [[Double]]
    /// Per class, at the confidence where the smoothed mean F1 over classes is highest (IoU 0.5).
    var precision: [Double]
    var recall: [Double]

    var meanAveragePrecision50to95: Double
    var meanAveragePrecision50: Double
    var meanPrecision: Double
    var meanRecall: Double

    /// Ultralytics' `eps` in `ap_per_class`.
    private static let epsilon = 1e-16
    /// Confidences at which the precision, recall and F1 curves are sampled (`np.linspace(0, 1, 1000)`).
    private static let curveConfidences = NumPyArithmetic.unitLinspace(1000)
    /// Recall points of the COCO 101-point interpolated AP.
    private static let recallPoints = NumPyArithmetic.unitLinspace(101)

    init(detections: [MeanAveragePrecision.MatchedDetection], instancesPerClass: [Int: Int]) {
        let thresholdCount = MeanAveragePrecision.iouThresholds.count
        classes = instancesPerClass.filter { $0.value > 0 }.keys.sorted()
        averagePrecision = Array(repeating: Array(repeating: 0, count: thresholdCount), count: classes.count)
        precision = Array(repeating: 0, count: classes.count)
        recall = Array(repeating: 0, count: classes.count)
        meanAveragePrecision50to95 = 0; meanAveragePrecision50 = 0; meanPrecision = 0; meanRecall = 0

        // Ultralytics' DetectionValidator.get_stats computes metrics only when some detection is a
        // true positive at some threshold; otherwise every metric stays 0.
        guard !classes.isEmpty, detections.contains(where: { $0.correct != 0 }) else { return }

        // Sort by confidence, highest first (`np.argsort(-conf)`); ties keep the order of arrival
        // (image order, then the detector's order), where NumPy's unstable sort is unspecified.
        let sorted = detections.enumerated()
            .sorted { $0.element.confidence != $1.element.confidence ? $0.element.confidence > $1.element.confidence : $0.offset < $1.offset }
            .map(\.element)
        var byClass: [Int: [MeanAveragePrecision.MatchedDetection]] = [:]
        for detection in sorted { byClass[detection.classIndex, default: []].append(detection) }

        let curveCount = Self.curveConfidences.count
        var precisionCurves = Array(repeating: [Double](repeating: 0, count: curveCount), count: classes.count)
        var recallCurves = precisionCurves

        for (row, classIndex) in classes.enumerated() {
            guard let classDetections = byClass[classIndex], !classDetections.isEmpty,
                  let instanceCount = instancesPerClass[classIndex] else { continue }
            let negatedConfidences = classDetections.map { Double(-$0.confidence) }
            for t in 0..<thresholdCount {
                var truePositives = 0, falsePositives = 0
                var recallCurve: [Double] = [], precisionCurve: [Double] = []
                recallCurve.reserveCapacity(classDetections.count)
                precisionCurve.reserveCapacity(classDetections.count)
                for detection in classDetections {
                    if detection.correct & (1 << UInt16(t)) != 0 { truePositives += 1 } else { falsePositives += 1 }
                    recallCurve.append(Double(truePositives) / (Double(instanceCount) + Self.epsilon))
                    precisionCurve.append(Double(truePositives) / Double(truePositives + falsePositives))
                }
                averagePrecision[row][t] = Self.averagePrecision(recall: recallCurve, precision: precisionCurve)
                if t == 0 {
                    // `np.interp(-x, -conf, curve, left=…)`: confidences fall, so both axes are negated.
                    for (k, confidence) in Self.curveConfidences.enumerated() {
                        recallCurves[row][k] = NumPyArithmetic.interpolate(-confidence, negatedConfidences, recallCurve, left: 0)
                        precisionCurves[row][k] = NumPyArithmetic.interpolate(-confidence, negatedConfidences, precisionCurve, left: 1)
                    }
                }
            }
        }

        // F1 per class and confidence, its mean over classes, box-smoothed; precision and recall are
        // read where that smoothed mean F1 is highest.
        var meanF1 = [Double](repeating: -0.0, count: curveCount)
        for row in classes.indices {
            for k in 0..<curveCount {
                let p = precisionCurves[row][k], r = recallCurves[row][k]
                meanF1[k] += 2 * p * r / (p + r + Self.epsilon)
            }
        }
        meanF1 = meanF1.map { $0 / Double(classes.count) }
        let best = Self.indexOfMaximum(Self.smooth(meanF1, fraction: 0.1))
        precision = precisionCurves.map { $0[best] }
        recall = recallCurves.map { $0[best] }

        meanAveragePrecision50to95 = NumPyArithmetic.mean(averagePrecision.flatMap { $0 })
        meanAveragePrecision50 = NumPyArithmetic.mean(averagePrecision.map { $0[0] })
        meanPrecision = NumPyArithmetic.mean(precision)
        meanRecall = NumPyArithmetic.mean(recall)
    }

    /// Ultralytics' `compute_ap`: sentinels (recall 0 → precision 1, recall 1 → precision 0), the
    /// precision envelope (each point raised to the best precision at any higher recall), then the
    /// trapezoid integral of that envelope sampled at 101 recall points (COCO interpolation).
    static func averagePrecision(recall: [Double], precision: [Double]) -> Double {
        let envelopeRecall = [0.0] + recall + [1.0]
        var envelopePrecision = [1.0] + precision + [0.0]
        for i in stride(from: envelopePrecision.count - 2, through: 0, by: -1) {
            envelopePrecision[i] = max(envelopePrecision[i], envelopePrecision[i + 1])
        }
        let sampled = recallPoints.map { NumPyArithmetic.interpolate($0, envelopeRecall, envelopePrecision) }
        return NumPyArithmetic.trapezoid(sampled, recallPoints)
    }

    /// Ultralytics' `smooth`: a box filter over `fraction` of the curve (101 points for 1000), with
    /// the ends padded by repeating the first and last value.
    static func smooth(_ curve: [Double], fraction: Double) -> [Double] {
        let width = Int((Double(curve.count) * fraction * 2).rounded(.toNearestOrEven)) / 2 + 1
        let padding = width / 2
        let padded = [Double](repeating: curve[0], count: padding) + curve + [Double](repeating: curve[curve.count - 1], count: padding)
        let weight = 1.0 / Double(width)
        return (0..<curve.count).map { start in
            var total = 0.0
            for k in 0..<width { total += padded[start + k] * weight }
            return total
        }
    }

    /// `np.argmax`: the first index of the largest value.
    static func indexOfMaximum(_ values: [Double]) -> Int {
        var best = 0
        for i in values.indices where values[i] > values[best] { best = i }
        return best
    }
}
