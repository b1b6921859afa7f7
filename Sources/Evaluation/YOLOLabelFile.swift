import AssistCore
import Foundation
import Perception

/// One object in a YOLO label file: `class cx cy w h`, the box normalized to 0…1 of the image.
public struct YOLOLabel: Sendable, Equatable, Hashable, Codable {
    public var classIndex: Int
    public var centerX: Float
    public var centerY: Float
    public var width: Float
    public var height: Float

    public init(classIndex: Int, centerX: Float, centerY: Float, width: Float, height: Float) {
        self.classIndex = classIndex
        self.centerX = centerX; self.centerY = centerY
        self.width = width; self.height = height
    }

    /// The box in pixels of an image of the given size, limited to the image.
    ///
    /// Ultralytics' validator turns labels into pixel corners and clips them to the original image
    /// (`scale_boxes` → `clip_boxes`); coco128 has boxes that reach 5e-7 past the edge, so the clip
    /// matters. The arithmetic is Float32, as in Ultralytics.
    public func box(imageWidth: Int, imageHeight: Int) -> BoundingBox {
        let w = Float(imageWidth), h = Float(imageHeight)
        let halfWidth = width / 2, halfHeight = height / 2
        return BoundingBox(x0: (centerX - halfWidth) * w, y0: (centerY - halfHeight) * h,
                           x1: (centerX + halfWidth) * w, y1: (centerY + halfHeight) * h)
            .clipped(width: imageWidth, height: imageHeight)
    }
}

/// One labelled object in pixels: what a detection is compared against.
public struct GroundTruthObject: Sendable, Equatable, Codable {
    public var classIndex: Int
    public var box: BoundingBox

    public init(classIndex: Int, box: BoundingBox) {
        self.classIndex = classIndex
        self.box = box
    }
}

/// A parsed YOLO label file (`class cx cy w h` per line, normalized coordinates).
///
/// Parsing follows Ultralytics' `verify_image_label`: values are Float32, every coordinate must lie
/// in 0…1, a class must be a whole number ≥ 0, and exactly repeated lines are dropped (Ultralytics
/// then keeps the remaining lines in sorted order, which this reproduces because the order of the
/// ground truth decides ties in matching). A line of a class and three or more x y points is a
/// polygon (segmentation label) and becomes its bounding box, as `segments2boxes` does.
public struct YOLOLabelFile: Sendable, Equatable {
    /// The file the labels came from; nil for an image that has no label file (no objects).
    public var url: URL?
    public var labels: [YOLOLabel]
    /// How many exactly repeated lines were dropped.
    public var duplicatesRemoved: Int

    /// The labels of an image with no label file: no objects.
    public static let empty = YOLOLabelFile(url: nil, labels: [], duplicatesRemoved: 0)

    public init(url: URL?, labels: [YOLOLabel], duplicatesRemoved: Int) {
        self.url = url
        self.labels = labels
        self.duplicatesRemoved = duplicatesRemoved
    }

    /// Reads and parses the label file at `url`.
    public init(contentsOf url: URL) throws(LabelFileError) {
        let text: String
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw LabelFileError(file: url, line: nil, problem: .unreadable(reason: "it does not exist"))
        }
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw LabelFileError(file: url, line: nil, problem: .unreadable(reason: "it is not UTF-8 text or cannot be opened"))
        }
        try self.init(parsing: text, file: url)
    }

    /// Parses label text; `file` names the source in errors.
    public init(parsing text: String, file: URL) throws(LabelFileError) {
        var parsed: [YOLOLabel] = []
        var lineNumber = 0
        // Lines and fields split as Python's splitlines() and split() do ("\r\n" is one Character).
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            let fields = line.split(whereSeparator: \.isWhitespace)
            if fields.isEmpty { continue }
            do {
                parsed.append(try Self.label(fromFields: fields))
            } catch {
                throw LabelFileError(file: file, line: lineNumber, problem: error)
            }
        }
        // Ultralytics removes exact duplicate rows with np.unique(axis=0), which also sorts the rows.
        let unique = Array(Set(parsed))
        if unique.count < parsed.count {
            self.init(url: file, labels: unique.sorted(by: Self.rowOrder), duplicatesRemoved: parsed.count - unique.count)
        } else {
            self.init(url: file, labels: parsed, duplicatesRemoved: 0)
        }
    }

    /// The labelled objects in pixels of an image of the given size.
    public func groundTruth(imageWidth: Int, imageHeight: Int) -> [GroundTruthObject] {
        labels.map { GroundTruthObject(classIndex: $0.classIndex, box: $0.box(imageWidth: imageWidth, imageHeight: imageHeight)) }
    }

    private static func label(fromFields fields: [Substring]) throws(LabelFileError.Problem) -> YOLOLabel {
        guard fields.count == 5 || (fields.count >= 7 && fields.count % 2 == 1) else {
            throw .wrongFieldCount(fields.count)
        }
        var values: [Float] = []
        values.reserveCapacity(fields.count)
        for field in fields {
            // Through Double, as NumPy converts the text (decimal → float64 → float32).
            guard let value = Double(field), value.isFinite else { throw .notANumber(String(field)) }
            values.append(Float(value))
        }
        let classValue = values[0]
        guard classValue >= 0, classValue.rounded() == classValue, classValue < Float(Int32.max) else {
            throw .invalidClass(String(fields[0]))
        }
        for value in values.dropFirst() where !(0...1).contains(value) {
            throw .coordinateOutOfRange(value)
        }
        if fields.count == 5 {
            return YOLOLabel(classIndex: Int(classValue), centerX: values[1], centerY: values[2],
                             width: values[3], height: values[4])
        }
        // Polygon: x y pairs; its bounding box as centre and size, in Float32 like segments2boxes.
        let xs = stride(from: 1, to: values.count, by: 2).map { values[$0] }
        let ys = stride(from: 2, to: values.count, by: 2).map { values[$0] }
        let x0 = xs.min()!, x1 = xs.max()!, y0 = ys.min()!, y1 = ys.max()!
        return YOLOLabel(classIndex: Int(classValue), centerX: (x0 + x1) / 2, centerY: (y0 + y1) / 2,
                         width: x1 - x0, height: y1 - y0)
    }

    /// Lexicographic order of the rows (class, cx, cy, w, h), as np.unique(axis=0) sorts them.
    private static func rowOrder(_ a: YOLOLabel, _ b: YOLOLabel) -> Bool {
        let left = [Float(a.classIndex), a.centerX, a.centerY, a.width, a.height]
        let right = [Float(b.classIndex), b.centerX, b.centerY, b.width, b.height]
        return left.lexicographicallyPrecedes(right)
    }
}

/// A label file that cannot be used; names the file and, for a bad line, its number.
public struct LabelFileError: UserFacingError, Equatable {
    public enum Problem: Error, Sendable, Equatable {
        case unreadable(reason: String)
        /// A box line has 5 fields (`class cx cy w h`); a polygon line has a class and 3 or more x y pairs.
        case wrongFieldCount(Int)
        case notANumber(String)
        /// The class is not a whole number ≥ 0.
        case invalidClass(String)
        /// Coordinates are normalized to the image, so every one lies in 0…1.
        case coordinateOutOfRange(Float)
    }

    public var file: URL
    /// 1-based line number, nil when the whole file is the problem.
    public var line: Int?
    public var problem: Problem

    public init(file: URL, line: Int?, problem: Problem) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    public var userMessage: String {
        let place = line.map { "Line \($0) of the label file \(file.path)" } ?? "The label file \(file.path)"
        switch problem {
        case .unreadable(let reason):
            return "\(place) cannot be read: \(reason)."
        case .wrongFieldCount(let count):
            return "\(place) has \(count) values; a label line needs 5 (class cx cy w h) or a class and 3 or more x y points."
        case .notANumber(let field):
            return "\(place) has \"\(field)\" where a number belongs."
        case .invalidClass(let field):
            return "\(place) has the class \"\(field)\"; a class must be a whole number of 0 or more."
        case .coordinateOutOfRange(let value):
            return "\(place) has the coordinate \(value), outside 0…1; YOLO labels are normalized to the image size."
        }
    }
}
