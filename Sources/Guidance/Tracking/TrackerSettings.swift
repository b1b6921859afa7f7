import Foundation

/// The thresholds of `ObjectTracker`, with where each number comes from.
public struct TrackerSettings: Sendable, Equatable {
    /// Detections at or above this confidence are matched first and may start tracks; ByteTrack's
    /// `track_thresh` (Zhang et al. 2022, ECCV) is 0.5.
    public var highConfidence: Float = 0.5
    /// Detections below this are ignored; between this and `highConfidence` they only keep an
    /// existing track alive (ByteTrack's second association: a half-hidden chair scores low).
    public var lowConfidence: Float = 0.1
    /// A new track starts only from a detection this sure (ByteTrack: `track_thresh` + 0.1), so a
    /// flicker of a weak detection is not announced as a new object.
    public var newTrackConfidence: Float = 0.6
    /// Least overlap for the first association (ByteTrack's `match_thresh` 0.8 on the cost 1 − IoU).
    public var firstPassMinimumIoU: Float = 0.2
    /// Least overlap for the second association of low-confidence detections (ByteTrack: 0.5).
    public var secondPassMinimumIoU: Float = 0.5
    /// A track missed for more frames than this has ended. ByteTrack keeps lost tracks 30 frames
    /// at 30 fps (1 s); guidance runs at 2–10 fps, so 5 frames covers about the same second or more.
    public var maximumMissedFrames: Int = 5
    /// A track is confirmed (worth announcing) once seen in this many frames.
    public var confirmationFrames: Int = 2
    /// How long an ended track is remembered, so that the same kind of object appearing again is
    /// known to have come back rather than being new.
    public var rememberEndedTracksSeconds: Double = 60
    /// Relative error assumed for a distance that carries none (the geometric cues' usual size).
    public var defaultDistanceRelativeError: Double = 0.2
    /// The distance filter's process noise, in m/s²: how fast the closing speed may change. A
    /// walker goes from standing to 1.4 m/s over two to three steps (about 0.5 m/s²), and so do
    /// people nearby; 1 m/s² smoothed 20 % noise hardly at all at 5 fps (gain 0.5), 0.5 halves it.
    public var distanceAccelerationNoiseMetersPerSecondSquared: Double = 0.5
    /// Below this closing speed the object counts as not approaching, and no time to collision is
    /// given: a filtered speed of a static object wanders by about 0.1–0.2 m/s with 20 % noise.
    public var minimumApproachSpeedMetersPerSecond: Double = 0.25

    public init() {}

    /// The defaults.
    public static let standard = TrackerSettings()
}
