import Foundation

/// Detection accuracy over a set of images, in the terms of Ultralytics' `yolo val` table
/// (`Images Instances Box(P R mAP50 mAP50-95)`). Averages are over the classes that have ground
/// truth; a class the detector never found counts with AP 0.
public struct DetectionAccuracy: Sendable, Equatable, Codable {
    /// mAP averaged over IoU thresholds 0.50, 0.55, …, 0.95 (COCO's primary metric).
    public var meanAveragePrecision50to95: Double
    /// mAP at IoU 0.50.
    public var meanAveragePrecision50: Double
    /// Mean over classes of the precision at the confidence where the smoothed mean F1 is highest.
    public var precision: Double
    /// Mean over classes of the recall at that same confidence.
    public var recall: Double
    /// Images evaluated.
    public var imageCount: Int
    /// Labelled objects in those images.
    public var instanceCount: Int
    /// Detections the detector reported in those images.
    public var detectionCount: Int
    /// One entry per class with ground truth, by class index.
    public var classes: [ClassAccuracy]

    public init(meanAveragePrecision50to95: Double, meanAveragePrecision50: Double, precision: Double, recall: Double,
                imageCount: Int, instanceCount: Int, detectionCount: Int, classes: [ClassAccuracy]) {
        self.meanAveragePrecision50to95 = meanAveragePrecision50to95
        self.meanAveragePrecision50 = meanAveragePrecision50
        self.precision = precision
        self.recall = recall
        self.imageCount = imageCount
        self.instanceCount = instanceCount
        self.detectionCount = detectionCount
        self.classes = classes
    }
}

/// Accuracy for one class (a row of Ultralytics' per-class table).
public struct ClassAccuracy: Sendable, Equatable, Codable {
    public var classIndex: Int
    /// The class name, when known (from the caller's names or the detector's labels).
    public var name: String?
    /// Images that contain at least one object of the class.
    public var imageCount: Int
    /// Labelled objects of the class.
    public var instanceCount: Int
    public var precision: Double
    public var recall: Double
    public var averagePrecision50: Double
    public var averagePrecision50to95: Double

    public init(classIndex: Int, name: String?, imageCount: Int, instanceCount: Int, precision: Double, recall: Double,
                averagePrecision50: Double, averagePrecision50to95: Double) {
        self.classIndex = classIndex
        self.name = name
        self.imageCount = imageCount
        self.instanceCount = instanceCount
        self.precision = precision
        self.recall = recall
        self.averagePrecision50 = averagePrecision50
        self.averagePrecision50to95 = averagePrecision50to95
    }
}

extension DetectionAccuracy {
    /// The table `yolo val` prints, in its layout (`%22s%11i%11i%11.3g…`), so runs can be compared
    /// line by line: a header, an `all` row, then one row per class with the images that contain it.
    public func table() -> String {
        func row(_ name: String, _ images: Int, _ instances: Int, _ values: [Double]) -> String {
            padded(name, 22) + padded(String(images), 11) + padded(String(instances), 11)
                + values.map { padded(String(format: "%.3g", $0), 11) }.joined()
        }
        func padded(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        var lines = [padded("Class", 22) + ["Images", "Instances", "Box(P", "R", "mAP50", "mAP50-95)"].map { padded($0, 11) }.joined()]
        lines.append(row("all", imageCount, instanceCount, [precision, recall, meanAveragePrecision50, meanAveragePrecision50to95]))
        for entry in classes {
            lines.append(row(entry.name ?? String(entry.classIndex), entry.imageCount, entry.instanceCount,
                             [entry.precision, entry.recall, entry.averagePrecision50, entry.averagePrecision50to95]))
        }
        return lines.joined(separator: "\n")
    }
}
