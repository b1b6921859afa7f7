import Foundation
import Testing
@testable import Evaluation
import Perception

@Suite("Matching detections to labels and averaging precision, as Ultralytics does")
struct MeanAveragePrecisionTests {
    /// Expected AP values below come from Ultralytics' compute_ap worked by hand (and checked with
    /// NumPy: np.trapezoid(np.interp(np.linspace(0, 1, 101), mrec, mpre), np.linspace(0, 1, 101))).
    /// Recall 1 is never worth a full point: np.interp at recall 1 lands on the closing sentinel
    /// (precision 0), so the last of the 100 trapezoids is half high and a perfect class scores 0.995.

    @Test("IoU is intersection over union plus Ultralytics' 1e-7, in Float32")
    func intersectionOverUnion() {
        let a = BoundingBox(x0: 0, y0: 0, x1: 10, y1: 10)
        let halfOverlap = BoundingBox(x0: 5, y0: 0, x1: 15, y1: 10)
        let apart = BoundingBox(x0: 20, y0: 20, x1: 30, y1: 30)
        #expect(MeanAveragePrecision.ultralyticsIoU(a, halfOverlap) == Float(50) / (Float(150) + Float(1e-7)))
        #expect(abs(MeanAveragePrecision.ultralyticsIoU(a, halfOverlap) - 1.0 / 3.0) < 1e-6)
        #expect(MeanAveragePrecision.ultralyticsIoU(a, a) == Float(100) / (Float(100) + Float(1e-7)))
        #expect(MeanAveragePrecision.ultralyticsIoU(a, apart) == 0)
        // Agrees with the shared geometry to within the epsilon.
        #expect(abs(MeanAveragePrecision.ultralyticsIoU(a, halfOverlap) - a.intersectionOverUnion(with: halfOverlap)) < 1e-6)
    }

    @Test("the ten IoU thresholds are torch.linspace(0.5, 0.95, 10) in Float32")
    func thresholds() {
        let torchValues: [Double] = [0.5, 0.550000011920929, 0.6000000238418579, 0.6499999761581421, 0.699999988079071,
                                     0.75, 0.800000011920929, 0.8500000238418579, 0.8999999761581421, 0.949999988079071]
        #expect(MeanAveragePrecision.iouThresholds.map(Double.init) == torchValues)
    }

    @Test("perfect detections of several classes over several images score 0.995, Ultralytics' ceiling")
    func perfectDetections() {
        var map = MeanAveragePrecision()
        map.add(detections: [detection(0, 0.9, 10, 10, 50, 60), detection(1, 0.8, 100, 100, 200, 220)],
                groundTruth: [object(0, 10, 10, 50, 60), object(1, 100, 100, 200, 220)])
        map.add(detections: [detection(0, 0.7, 5, 5, 25, 45)], groundTruth: [object(0, 5, 5, 25, 45)])
        let accuracy = map.accuracy()
        #expect(accuracy.meanAveragePrecision50 == 0.995)
        // The mean of ten 0.995s is 0.9950000000000001 in NumPy's summation order.
        #expect(abs(accuracy.meanAveragePrecision50to95 - 0.995) < 1e-12)
        #expect(accuracy.precision == 1)
        #expect(accuracy.recall == 1)
        #expect(accuracy.imageCount == 2)
        #expect(accuracy.instanceCount == 3)
        #expect(accuracy.classes.map(\.classIndex) == [0, 1])
        #expect(accuracy.classes.map(\.instanceCount) == [2, 1])
        #expect(accuracy.classes.map(\.imageCount) == [2, 1])
    }

    @Test("finding one of two objects gives AP 0.75: precision 1 to recall 0.5, then a line down to 0 at recall 1")
    func oneOfTwoFound() {
        var map = MeanAveragePrecision()
        map.add(detections: [detection(3, 0.9, 10, 10, 50, 90)],
                groundTruth: [object(3, 10, 10, 50, 90), object(3, 200, 200, 240, 280)])
        let accuracy = map.accuracy()
        #expect(abs(accuracy.meanAveragePrecision50 - 0.75) < 1e-12)
        #expect(abs(accuracy.meanAveragePrecision50to95 - 0.75) < 1e-12)
        #expect(accuracy.recall == 0.5)
    }

    @Test("a false positive more confident than the true positive halves the precision: AP 0.99·0.5 + 0.01·0.25 = 0.4975")
    func confidentFalsePositive() {
        var map = MeanAveragePrecision()
        map.add(detections: [detection(3, 0.8, 10, 10, 50, 90), detection(3, 0.9, 200, 200, 240, 280)],
                groundTruth: [object(3, 10, 10, 50, 90)])
        let accuracy = map.accuracy()
        #expect(abs(accuracy.meanAveragePrecision50 - 0.4975) < 1e-12)
        #expect(abs(accuracy.meanAveragePrecision50to95 - 0.4975) < 1e-12)
    }

    @Test("a box with IoU 0.72 is a true positive at thresholds 0.50 to 0.70 only")
    func iouBetweenThresholds() {
        let groundTruth = [object(0, 0, 0, 100, 100)]
        let found = [detection(0, 0.9, 0, 0, 100, 72)]
        #expect(abs(MeanAveragePrecision.ultralyticsIoU(groundTruth[0].box, found[0].box) - 0.72) < 1e-6)
        #expect(MeanAveragePrecision.matchPredictions(found, groundTruth) == [0b00000_11111])
        var map = MeanAveragePrecision()
        map.add(detections: found, groundTruth: groundTruth)
        let accuracy = map.accuracy()
        #expect(accuracy.meanAveragePrecision50 == 0.995)
        #expect(abs(accuracy.meanAveragePrecision50to95 - 0.995 * 5 / 10) < 1e-12)
    }

    @Test("two detections of one object: only the more confident one is a true positive")
    func duplicateDetections() {
        let groundTruth = [object(0, 10, 10, 60, 60)]
        let found = [detection(0, 0.6, 10, 10, 60, 60), detection(0, 0.9, 11, 10, 60, 61)]
        let correct = MeanAveragePrecision.matchPredictions(MeanAveragePrecision.sortedByConfidence(found), groundTruth)
        #expect(correct == [0b11111_11111, 0])
        var map = MeanAveragePrecision()
        map.add(detections: found, groundTruth: groundTruth)
        #expect(map.accuracy().meanAveragePrecision50 == 0.995)
        #expect(map.accuracy().detectionCount == 2)
    }

    @Test("the earlier (more confident) detection takes an object even when a later one overlaps it more")
    func earliestDetectionWins() {
        // Ultralytics keeps, per label, the lowest detection index after de-duplicating detections;
        // it does not re-sort by IoU between the two np.unique calls (that line is commented out).
        let groundTruth = [object(0, 0, 0, 100, 100)]
        // IoU 0.58 for the first (true positive at 0.50 and 0.55), 0.98 for the second.
        let found = [detection(0, 0.9, 0, 0, 100, 58), detection(0, 0.8, 0, 0, 100, 98)]
        #expect(MeanAveragePrecision.matchPredictions(found, groundTruth) == [0b00000_00011, 0b11111_11100])
    }

    @Test("a detection never matches an object of another class, however well the boxes overlap")
    func classMismatch() {
        let groundTruth = [object(3, 10, 10, 50, 90)]
        let found = [detection(2, 0.9, 10, 10, 50, 90)]
        #expect(MeanAveragePrecision.matchPredictions(found, groundTruth) == [0])
        var map = MeanAveragePrecision()
        map.add(detections: found, groundTruth: groundTruth)
        let accuracy = map.accuracy()
        #expect(accuracy.meanAveragePrecision50to95 == 0)
        #expect(accuracy.classes.map(\.classIndex) == [3])
    }

    @Test("a detection equally close to two objects takes the later one, leaving the earlier to the next detection")
    func equalIoUTie() {
        // The detection box sits symmetrically between two labels, so both IoUs are bit-identical.
        let groundTruth = [object(0, 0, 0, 100, 100), object(0, 20, 0, 120, 100)]
        let between = detection(0, 0.9, 10, 0, 110, 100)
        let onFirst = detection(0, 0.8, 0, 0, 100, 100)
        #expect(MeanAveragePrecision.ultralyticsIoU(groundTruth[0].box, between.box)
            == MeanAveragePrecision.ultralyticsIoU(groundTruth[1].box, between.box))
        let correct = MeanAveragePrecision.matchPredictions([between, onFirst], groundTruth)
        // IoU(between) = 9000 / 11000 ≈ 0.818: true positive up to 0.80, on the second label; the
        // second detection then takes the first label at every threshold.
        #expect(correct == [0b00011_11111, 0b11111_11111])
    }

    @Test("classes without ground truth are not averaged, classes never detected count as 0")
    func classesInTheAverage() {
        var map = MeanAveragePrecision()
        map.add(detections: [detection(0, 0.9, 0, 0, 10, 10), detection(7, 0.95, 50, 50, 60, 60)],
                groundTruth: [object(0, 0, 0, 10, 10), object(1, 30, 30, 40, 40)])
        let accuracy = map.accuracy(classNames: ["person", "bicycle"])
        #expect(accuracy.classes.map(\.classIndex) == [0, 1])
        #expect(accuracy.classes.map(\.name) == ["person", "bicycle"])
        #expect(accuracy.classes.map(\.averagePrecision50) == [0.995, 0])
        #expect(accuracy.meanAveragePrecision50 == 0.995 / 2)
    }

    @Test("without any true positive every metric is 0, as in Ultralytics' get_stats")
    func noTruePositive() {
        var map = MeanAveragePrecision()
        map.add(detections: [detection(0, 0.9, 100, 100, 110, 110)], groundTruth: [object(0, 0, 0, 10, 10)])
        map.add(detections: [], groundTruth: [])
        let accuracy = map.accuracy()
        #expect(accuracy.meanAveragePrecision50to95 == 0)
        #expect(accuracy.precision == 0)
        #expect(accuracy.imageCount == 2)
    }

    @Test("sums follow NumPy's pairwise order, which differs from a running sum in the last bits")
    func numpySummation() {
        // np.sum(np.array([0.1] * 100)) == 9.999999999999998; Python's sum() gives 9.99999999999998.
        #expect(NumPyArithmetic.sum(Array(repeating: 0.1, count: 100)) == 9.999999999999998)
        // np.sum(np.array([0.1] * 300)) == 29.999999999999996 (blocks split in halves).
        #expect(NumPyArithmetic.sum(Array(repeating: 0.1, count: 300)) == 29.999999999999996)
    }

    @Test("interpolation takes the last of repeated x positions, as np.interp does")
    func numpyInterpolation() {
        let xp = [0.0, 0.5, 0.5, 1.0], fp = [1.0, 0.8, 0.4, 0.0]
        #expect(NumPyArithmetic.interpolate(0.5, xp, fp) == 0.4)
        #expect(NumPyArithmetic.interpolate(0.75, xp, fp) == 0.2)
        #expect(NumPyArithmetic.interpolate(1.0, [0, 1, 1], [1, 1, 0]) == 0)
        #expect(NumPyArithmetic.interpolate(-1, xp, fp, left: 7) == 7)
    }
}
