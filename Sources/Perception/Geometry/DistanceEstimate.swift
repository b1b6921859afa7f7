import Foundation

/// How a distance was found.
public enum DistanceMethod: String, Sendable, Equatable, Codable, CaseIterable {
    /// Median of a depth camera's readings inside the object.
    case measuredDepth
    /// Median of a monocular depth model's (metric) output inside the object.
    case depthModel
    /// Pinhole camera and the class's typical real size.
    case objectSize
    /// Where the box bottom meets the floor, from the camera's height and tilt.
    case groundContact
    /// Object size and ground contact, weighted by their estimated errors.
    case combined
}

/// A distance in meters, or the honest statement that there is none.
///
/// Every method estimates the distance along the level viewing direction (a depth camera's Z, the
/// pinhole's Z, the horizontal distance along the floor); with the camera level these agree.
public struct DistanceEstimate: Sendable, Equatable {
    /// `nil` when no cue worked: the user hears "distance unknown", JSON carries null.
    public let meters: Double?
    /// `nil` exactly when `meters` is.
    public let method: DistanceMethod?
    /// Estimated relative standard error (0.2 = about ±20 %); `nil` when `meters` is, or when a
    /// decoded estimate did not carry one.
    public let relativeError: Double?

    public static let unknown = DistanceEstimate(unchecked: nil, method: nil, relativeError: nil)

    public init(meters: Double, method: DistanceMethod, relativeError: Double?) {
        precondition(meters.isFinite && meters > 0, "a distance is a positive number of meters")
        self.init(unchecked: meters, method: method, relativeError: relativeError)
    }

    private init(unchecked meters: Double?, method: DistanceMethod?, relativeError: Double?) {
        self.meters = meters
        self.method = method
        self.relativeError = relativeError
    }

    public var isKnown: Bool { meters != nil }
}

/// One geometric cue's answer: a distance and its estimated relative standard error.
public struct DistanceCue: Sendable, Equatable {
    public let meters: Double
    public let relativeError: Double

    public init(meters: Double, relativeError: Double) {
        self.meters = meters
        self.relativeError = relativeError
    }

    /// Inverse-variance weighting in log-distance: the cues' errors are relative (a size error of
    /// 10 % moves the distance by 10 % whatever it is), so log d has about constant variance σ²
    /// and the best linear unbiased combination weights each log d by 1/σ². The combined σ is
    /// 1/√(Σ 1/σ²), smaller than either; this assumes the cues' errors are independent, which
    /// holds for size (the object's real size) against ground contact (the camera's height/tilt).
    public static func combined(_ cues: [DistanceCue]) -> DistanceCue? {
        guard !cues.isEmpty else { return nil }
        var weightSum = 0.0, weightedLog = 0.0
        for cue in cues {
            let weight = 1 / (cue.relativeError * cue.relativeError)
            weightSum += weight
            weightedLog += weight * log(cue.meters)
        }
        return DistanceCue(meters: exp(weightedLog / weightSum), relativeError: 1 / weightSum.squareRoot())
    }
}
