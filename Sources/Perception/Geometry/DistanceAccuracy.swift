import AssistCore
import Foundation

/// How far geometric distances are from a depth camera's: the check that the size table and the
/// camera model are honest, run on RGB-D frames.
public enum DistanceAccuracy {
    /// One object's estimate beside the depth camera's reading for it.
    public struct Pair: Sendable, Equatable, Codable {
        public let label: String
        public let estimatedMeters: Double
        public let measuredMeters: Double
        public let method: DistanceMethod?
        public var absoluteErrorMeters: Double { abs(estimatedMeters - measuredMeters) }
        public var relativeError: Double { absoluteErrorMeters / measuredMeters }
    }

    public struct Report: Sendable, Equatable, Codable {
        /// Mean of |estimate − reference| in meters.
        public let meanAbsoluteErrorMeters: Double
        /// Mean of |estimate − reference| / reference.
        public let meanRelativeError: Double
        /// Objects that had both an estimate and a reference.
        public let count: Int

        /// The summary of pairs from any number of frames; nil for none.
        public init?(pairs: [Pair]) {
            guard !pairs.isEmpty else { return nil }
            count = pairs.count
            meanAbsoluteErrorMeters = pairs.map(\.absoluteErrorMeters).reduce(0, +) / Double(count)
            meanRelativeError = pairs.map(\.relativeError).reduce(0, +) / Double(count)
        }
    }

    /// Compares each object's estimated distance with the depth map's median over the same box
    /// core (`sampling`, as `ObjectLocator` reads depth). Objects with no estimate, with a
    /// `measuredDepth` estimate (it would be compared with itself), or with too few valid depth
    /// readings are left out. `nil` when nothing is left to compare. The boxes are in pixels of an
    /// image `imageWidth` × `imageHeight` (default: the depth map's size).
    public static func compare(located: [LocatedObject], depth: DepthMap, imageWidth: Int? = nil,
                               imageHeight: Int? = nil, sampling: DepthSampling = .standard) -> Report? {
        Report(pairs: pairs(located: located, depth: depth, imageWidth: imageWidth, imageHeight: imageHeight,
                            sampling: sampling))
    }

    /// The objects that can be compared, each with its estimate and its measured distance.
    public static func pairs(located: [LocatedObject], depth: DepthMap, imageWidth: Int? = nil,
                             imageHeight: Int? = nil, sampling: DepthSampling = .standard) -> [Pair] {
        let width = imageWidth ?? depth.width, height = imageHeight ?? depth.height
        return located.compactMap { object in
            guard let estimate = object.distance.meters, object.distance.method != .measuredDepth,
                  let reference = sampling.medianMeters(in: object.detection.box.clipped(width: width, height: height),
                                                        imageWidth: width, imageHeight: height, depth: depth)
            else { return nil }
            return Pair(label: object.label, estimatedMeters: estimate, measuredMeters: reference,
                        method: object.distance.method)
        }
    }
}
