/// The detection and camera settings' defaults and ranges, defined once: the settings schema
/// (and so `assist settings`, the Settings page and the voice commands' replies), `assist see`'s
/// options, the detector and the camera model all read them, so a value one accepts no other refuses.
public enum VisionLimits {
    /// Detections less sure than this are never mentioned. 0.6 keeps the confident detections of
    /// the default detector (bus.jpg: bus 0.94, people 0.90/0.83/0.82) and drops its doubtful
    /// ones (a half-hidden person at 0.48, a tie at 0.48 on zidane.jpg); a wrong warning costs a
    /// blind user more trust than a missed far-away object.
    public static let defaultConfidenceThreshold = 0.6
    /// 0.05–0.95: below, the detector's noise is announced as objects; above, even a clear bus
    /// (0.94 on bus.jpg) would be silenced.
    public static let confidenceThreshold = 0.05...0.95
    /// Boxes of one class overlapping more than this (intersection over union) are one object.
    public static let defaultIoUThreshold = 0.45
    /// 0.1–0.9: below, people side by side merge into one; above, one person is announced twice.
    public static let iouThreshold = 0.1...0.9
    /// A typical phone or chest camera's horizontal field of view.
    public static let defaultFieldOfViewDegrees = 70.0
    /// 30–170°: the pinhole model that turns a position in the picture into a direction has no
    /// 180° (tan 90° is infinite) and is far off for fisheye lenses beyond 170°; narrower than 30°
    /// is a telephoto view no walking aid uses.
    public static let fieldOfViewDegrees = 30.0...170.0
}
