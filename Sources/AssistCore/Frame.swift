/// One moment of what the camera saw: the colour picture, and the measured depth when the
/// input carries it (a depth camera, or a depth file beside a colour image).
public struct Frame: Sendable {
    public var image: RGBImage
    public var depth: DepthMap?
    /// Seconds since the start of the source (the video's own clock for files).
    public var timestampSeconds: Double
    /// Where the frame came from, for messages ("bus.jpg", "/dev/video0").
    public var sourceName: String

    public init(image: RGBImage, depth: DepthMap? = nil, timestampSeconds: Double = 0, sourceName: String) {
        self.image = image
        self.depth = depth
        self.timestampSeconds = timestampSeconds
        self.sourceName = sourceName
    }
}
