import AssistCore

/// A second look at a still picture: the detector run again on the picture mirrored left to right,
/// to confirm what it saw only doubtfully. A live session confirms a sighting on the next frames
/// (the tracker); a still picture has no next frame, and the detector is not symmetric, so a real
/// thing tends to be found again in the mirror and a doubtful misreading less often.
///
/// A detection below the threshold but at or above `floor` counts when the mirrored picture's
/// detection of the same category, at the threshold itself, overlaps it (its box mirrored back) by
/// at least `minimumOverlap` (intersection over union). Counted detections keep their own
/// confidence; counts stay exact (a confirmed thing is counted like any other, never hedged).
///
/// The values were chosen on the first half of coco128 only (bench/questions_second_look.py,
/// BENCHMARKS.md "Issue 38 (twenty-sixth session)"): the one setting of those weighed with most
/// right answers and no "Yes." said of a category the labels lack; on the untouched half it
/// answered 181 of 226 right instead of 174, with no more such "Yes." than the threshold alone.
public struct SecondLook: Sendable, Equatable {
    /// The least confidence of a detection a second look may confirm.
    public var floor: Float
    /// The least intersection over union of the two boxes for them to be the same thing.
    public var minimumOverlap: Float

    public init(floor: Float, minimumOverlap: Float) {
        self.floor = floor
        self.minimumOverlap = minimumOverlap
    }

    /// The setting chosen on coco128's first half (see above).
    public static let mirrored = SecondLook(floor: 0.5, minimumOverlap: 0.5)

    /// The detections of `image` at `settings`' threshold, and those between the floor and the
    /// threshold that the mirrored picture confirms. The mirrored picture is looked at only when
    /// there is such a doubtful detection (a second inference); timings add up both looks.
    public func detect(_ image: RGBImage, with detector: ObjectDetector, settings: DetectorSettings) throws -> DetectionResult {
        guard floor < settings.confidenceThreshold else { return try detector.detect(image, settings: settings) }
        var lowered = settings
        lowered.confidenceThreshold = floor
        var first = try detector.detect(image, settings: lowered)
        guard first.detections.contains(where: { $0.confidence < settings.confidenceThreshold }) else { return first }
        let second = try detector.detect(image.mirroredLeftToRight(), settings: settings)
        first.detections = confirmed(first.detections, mirrored: second.detections, imageWidth: image.width,
                                     threshold: settings.confidenceThreshold)
        first.timings.preprocessMilliseconds += second.timings.preprocessMilliseconds
        first.timings.inferenceMilliseconds += second.timings.inferenceMilliseconds
        first.timings.postprocessMilliseconds += second.timings.postprocessMilliseconds
        return first
    }

    /// `detections` (of the picture, at the floor) as they count: those at `threshold`, and those
    /// below it that a detection of the mirrored picture, of the same category at `threshold`,
    /// confirms. `mirrored` holds the mirrored picture's detections in its own (mirrored) frame.
    public func confirmed(_ detections: [Detection], mirrored: [Detection], imageWidth: Int, threshold: Float) -> [Detection] {
        let width = Float(imageWidth)
        let seenAgain = mirrored.filter { $0.confidence >= threshold }.map { detection -> Detection in
            var back = detection
            back.box = BoundingBox(x0: width - detection.box.x1, y0: detection.box.y0, x1: width - detection.box.x0, y1: detection.box.y1)
            return back
        }
        return detections.filter { detection in
            detection.confidence >= threshold || (detection.confidence >= floor && seenAgain.contains {
                $0.label == detection.label && $0.box.intersectionOverUnion(with: detection.box) >= minimumOverlap
            })
        }
    }
}
