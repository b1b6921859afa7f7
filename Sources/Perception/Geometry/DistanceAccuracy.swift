import AssistCore
import Foundation

/// How far geometric distances are from a depth camera's: the check that the size table and the
/// camera model are honest, run on RGB-D frames.
public enum DistanceAccuracy {
    public struct Report: Sendable, Equatable {
        /// Mean of |estimate − reference| in meters.
        public let meanAbsoluteErrorMeters: Double
        /// Mean of |estimate − reference| / reference.
        public let meanRelativeError: Double
        /// Objects that had both an estimate and a reference.
        public let count: Int
    }

    /// Compares each object's estimated distance with the depth map's median over the same box
    /// core (`sampling`, as `ObjectLocator` reads depth). Objects with no estimate, with a
    /// `measuredDepth` estimate (it would be compared with itself), or with too few valid depth
    /// readings are left out. `nil` when nothing is left to compare. The boxes are in pixels of an
    /// image `imageWidth` × `imageHeight` (default: the depth map's size).
    public static func compare(located: [LocatedObject], depth: DepthMap, imageWidth: Int? = nil,
                               imageHeight: Int? = nil, sampling: DepthSampling = .standard) -> Report? {
        let width = imageWidth ?? depth.width, height = imageHeight ?? depth.height
        var absoluteSum = 0.0, relativeSum = 0.0, count = 0
        for object in located {
            guard let estimate = object.distance.meters, object.distance.method != .measuredDepth,
                  let reference = sampling.medianMeters(in: object.detection.box.clipped(width: width, height: height),
                                                        imageWidth: width, imageHeight: height, depth: depth)
            else { continue }
            absoluteSum += abs(estimate - reference)
            relativeSum += abs(estimate - reference) / reference
            count += 1
        }
        guard count > 0 else { return nil }
        return Report(meanAbsoluteErrorMeters: absoluteSum / Double(count),
                      meanRelativeError: relativeSum / Double(count), count: count)
    }
}
