import AssistCore
import Foundation

/// How far the walking corridor is free, from a depth map: the nearest measured point that stands
/// up from the floor inside the corridor, as a robust low order statistic.
public struct DepthCorridorObstacle: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Points lower than this above the floor are floor (a depth camera's floor readings scatter
        /// by a few centimetres, and the camera's height is known to about ±5 %, 6.5 cm at 1.3 m).
        /// A kerb or a doorstep lower than this is not reported.
        public var minimumHeightAboveFloorMeters = 0.15
        /// Points higher than this pass over the user's head (adult stature plus a margin).
        public var maximumHeightAboveFloorMeters = 2.0
        /// The reported distance has at least this share of the map's pixels (and at least
        /// `minimumPoints`) at or nearer than it: a depth camera's flying pixels at object edges and
        /// speckle are single points, an obstacle is many. 0.05 % of 640×480 is 154 pixels, a patch
        /// about 8 cm wide at 3 m.
        public var minimumPointsFraction = 0.0005
        public var minimumPoints = 10
        /// Depth readings beyond this are ignored (beyond a depth camera's useful range).
        public var maximumRangeMeters = 10.0

        public init() {}
    }

    public struct Result: Sendable, Equatable {
        /// The nearest obstacle in the corridor in meters along the floor; nil when none is measured.
        public let nearestObstacleMeters: Double?
        /// Depth-map pixels that stand up from the floor inside the corridor.
        public let obstaclePointCount: Int
        /// Where the depth came from (a model's estimate is less sure than a sensor's).
        public let origin: DepthOrigin
    }

    public let corridor: WalkingCorridor
    public let settings: Settings

    public init(corridor: WalkingCorridor = WalkingCorridor(), settings: Settings = Settings()) {
        self.corridor = corridor
        self.settings = settings
    }

    /// The depth map's own size sets the intrinsics (`corridor.camera`'s lens at that size), so a
    /// depth map smaller than the colour picture works as it is.
    public func detect(in depth: DepthMap) throws -> Result {
        let intrinsics = try corridor.camera.intrinsics(imageWidth: depth.width, imageHeight: depth.height)
        let projection = WalkingCorridor.Projection(corridor: corridor, intrinsics: intrinsics, width: depth.width, height: depth.height)
        var forwardDistances: [Double] = []
        for y in 0..<depth.height {
            for x in 0..<depth.width {
                let z = Double(depth.metersOrNaN[y * depth.width + x])
                guard z.isFinite, z > 0, z <= settings.maximumRangeMeters else { continue }
                let point = projection.measuredPoint(x: x, y: y, depthMeters: z)
                guard corridor.contains(lateralMeters: point.lateralMeters), point.forwardMeters > 0,
                      point.heightMeters >= settings.minimumHeightAboveFloorMeters,
                      point.heightMeters <= settings.maximumHeightAboveFloorMeters else { continue }
                forwardDistances.append(point.forwardMeters)
            }
        }
        let needed = max(settings.minimumPoints, Int(settings.minimumPointsFraction * Double(depth.width * depth.height)), 1)
        guard forwardDistances.count >= needed else {
            return Result(nearestObstacleMeters: nil, obstaclePointCount: forwardDistances.count, origin: depth.origin)
        }
        forwardDistances.sort()
        return Result(nearestObstacleMeters: forwardDistances[needed - 1], obstaclePointCount: forwardDistances.count,
                      origin: depth.origin)
    }
}
