import AssistCore
import Guidance
import Perception

/// The frame the session analysed last, with what it found there: the picture as analysed and
/// each object in that picture's pixel coordinates, for a view of what the assistant sees (the
/// web app's Live page). Held in memory only, and only the newest one: it is replaced by the next
/// analysed frame and dropped when the session ends; nothing here is ever written to disk.
public struct AnalysedFrame: Sendable {
    /// Counts analysed frames from 1, so a viewer can tell a new frame from the one it has.
    public var sequenceNumber: Int
    /// The session's clock when it was analysed.
    public var timeSeconds: Double
    public var image: RGBImage
    /// Every object above the confidence threshold, closest first; boxes in `image`'s pixels.
    public var objects: [LocatedObject]
    /// The description of the scene, as the describer words it (said or not in this mode).
    public var description: [String]
    /// The unit distances are said in.
    public var distanceUnit: DistanceUnit

    public init(sequenceNumber: Int, timeSeconds: Double, image: RGBImage, objects: [LocatedObject],
                description: [String], distanceUnit: DistanceUnit) {
        self.sequenceNumber = sequenceNumber
        self.timeSeconds = timeSeconds
        self.image = image
        self.objects = objects
        self.description = description
        self.distanceUnit = distanceUnit
    }
}
