import AssistCore
import Foundation

/// How an object's distance is read from a depth map: the median of the valid readings in the
/// box's core.
///
/// Why the core: a detector's box is a rectangle around a shape that rarely fills it (a person's
/// box has background beside the legs and above the shoulders), and depth edges are where depth
/// cameras fail. The central half of the width and of the height (a quarter of the area) lies on
/// the object for people, chairs and vehicles. The median stays on the object while fewer than half
/// the valid readings are background: with 30 % background it lands at the object's 71st percentile.
public struct DepthSampling: Sendable, Equatable {
    /// The share of the box's width and of its height, centred, that is read.
    public let coreFraction: Double
    /// Fewer valid readings than this and the median is a few stray pixels, not the object.
    public let minimumValidPixels: Int
    /// With less than this share of the core valid, the readings are likely edge artefacts
    /// (a black or shiny object returns holes), so geometry is the better guess.
    public let minimumValidFraction: Double

    public static let standard = DepthSampling(checkedCore: 0.5, minimumValidPixels: 10, minimumValidFraction: 0.2)

    public init(coreFraction: Double = 0.5, minimumValidPixels: Int = 10, minimumValidFraction: Double = 0.2) throws {
        guard coreFraction > 0, coreFraction <= 1 else {
            throw DepthSamplingError.outOfRange(field: "core fraction", value: coreFraction, allowed: "more than 0, at most 1")
        }
        guard minimumValidPixels >= 1 else {
            throw DepthSamplingError.outOfRange(field: "minimum valid pixels", value: Double(minimumValidPixels), allowed: "at least 1")
        }
        guard minimumValidFraction >= 0, minimumValidFraction <= 1 else {
            throw DepthSamplingError.outOfRange(field: "minimum valid fraction", value: minimumValidFraction, allowed: "0 to 1")
        }
        self.init(checkedCore: coreFraction, minimumValidPixels: minimumValidPixels, minimumValidFraction: minimumValidFraction)
    }

    private init(checkedCore: Double, minimumValidPixels: Int, minimumValidFraction: Double) {
        coreFraction = checkedCore
        self.minimumValidPixels = minimumValidPixels
        self.minimumValidFraction = minimumValidFraction
    }

    /// The median depth in meters inside the core of `box` (pixels of an image `imageWidth` ×
    /// `imageHeight`; scaled to the depth map when its size differs), or `nil` when too few
    /// readings are valid. Valid means finite and above 0.
    public func medianMeters(in box: BoundingBox, imageWidth: Int, imageHeight: Int, depth: DepthMap) -> Double? {
        guard imageWidth > 0, imageHeight > 0, depth.width > 0, depth.height > 0 else { return nil }
        let scaleX = Double(depth.width) / Double(imageWidth), scaleY = Double(depth.height) / Double(imageHeight)
        let margin = (1 - coreFraction) / 2
        let x0 = (Double(box.x0) + margin * Double(box.width)) * scaleX
        let x1 = (Double(box.x1) - margin * Double(box.width)) * scaleX
        let y0 = (Double(box.y0) + margin * Double(box.height)) * scaleY
        let y1 = (Double(box.y1) - margin * Double(box.height)) * scaleY
        // Pixels whose centres (i + 0.5) lie inside the core; at least the pixel under its centre.
        var firstColumn = max(0, Int((x0 - 0.5).rounded(.up))), lastColumn = min(depth.width - 1, Int((x1 - 0.5).rounded(.down)))
        var firstRow = max(0, Int((y0 - 0.5).rounded(.up))), lastRow = min(depth.height - 1, Int((y1 - 0.5).rounded(.down)))
        if firstColumn > lastColumn || firstRow > lastRow {
            firstColumn = min(depth.width - 1, max(0, Int((x0 + x1) / 2)))
            firstRow = min(depth.height - 1, max(0, Int((y0 + y1) / 2)))
            lastColumn = firstColumn
            lastRow = firstRow
        }
        let columns = firstColumn...lastColumn, rows = firstRow...lastRow
        var readings: [Float] = []
        readings.reserveCapacity(columns.count * rows.count)
        for y in rows {
            let rowStart = y * depth.width
            for x in columns {
                let value = depth.metersOrNaN[rowStart + x]
                if value.isFinite, value > 0 { readings.append(value) }
            }
        }
        let needed = max(minimumValidPixels, Int((minimumValidFraction * Double(columns.count * rows.count)).rounded(.up)))
        guard readings.count >= needed else { return nil }
        readings.sort()
        let middle = readings.count / 2
        return readings.count % 2 == 1
            ? Double(readings[middle])
            : (Double(readings[middle - 1]) + Double(readings[middle])) / 2
    }
}

public enum DepthSamplingError: UserFacingError, Equatable {
    case outOfRange(field: String, value: Double, allowed: String)

    public var userMessage: String {
        switch self {
        case .outOfRange(let field, let value, let allowed):
            return "The depth sampling \(field) must be \(allowed), not \(value)."
        }
    }
}
