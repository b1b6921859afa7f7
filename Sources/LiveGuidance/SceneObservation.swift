import Guidance
import Perception

/// Everything the policies know about one analysed frame: the report, the tracks, and, in
/// navigation, what stands in the walking corridor.
public struct SceneObservation: Sendable {
    /// The session's clock in seconds: the video's own clock when rendering a file offline,
    /// time since start for a camera or a stream.
    public var timeSeconds: Double
    /// Objects above the confidence threshold (closest first), image quality, stage timings.
    public var report: SceneReport
    /// The same objects followed across frames: ids, smoothed distance, approach speed, time to collision.
    public var tracking: TrackingUpdate
    /// What blocks the walking corridor, from cues that need no class; nil when not computed
    /// (outside navigation, or when no cue works for this frame).
    public var corridor: CorridorReading?

    public init(timeSeconds: Double, report: SceneReport, tracking: TrackingUpdate, corridor: CorridorReading? = nil) {
        self.timeSeconds = timeSeconds
        self.report = report
        self.tracking = tracking
        self.corridor = corridor
    }
}

/// The class-free obstacle cue for one frame.
public struct CorridorReading: Sendable, Equatable {
    public enum Source: String, Sendable, Equatable {
        /// A depth camera or an RGB-D file.
        case depthImage = "depth image"
        /// A plugged-in depth model.
        case depthModel = "depth model"
        /// Appearance-based free-floor detection (Ulrich & Nourbakhsh, 2000).
        case freeFloor = "free floor"
    }

    /// The nearest thing standing in the corridor, in meters ahead; nil when the corridor is clear
    /// as far as the cue could see.
    public var nearestObstacleMeters: Double?
    /// How far ahead the cue could judge the corridor at all (free floor: the farthest floor row it
    /// examined; depth: its range). "Path clear" is only said when this reaches far enough.
    public var examinedToMeters: Double?
    public var source: Source

    public init(nearestObstacleMeters: Double?, examinedToMeters: Double?, source: Source) {
        self.nearestObstacleMeters = nearestObstacleMeters
        self.examinedToMeters = examinedToMeters
        self.source = source
    }
}
