import AssistCore
import Foundation

/// A detection with its direction and distance: what Guidance turns into a sentence.
public struct LocatedObject: Sendable, Equatable {
    public let detection: Detection
    public let direction: Direction
    public let distance: DistanceEstimate

    public init(detection: Detection, direction: Direction, distance: DistanceEstimate) {
        self.detection = detection
        self.direction = direction
        self.distance = distance
    }

    public var label: String { detection.label }
    public var confidence: Float { detection.confidence }
}

/// The `--json` shape: flat, units in the keys, `null` for an unknown distance.
extension LocatedObject: Codable {
    private enum CodingKeys: String, CodingKey {
        case label, classIndex, confidence, box, angleDegrees, direction, clockHour, elevationDegrees, verticalPosition
        case distanceMeters, distanceMethod, distanceRelativeError
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(detection.label, forKey: .label)
        try container.encode(detection.classIndex, forKey: .classIndex)
        try container.encode(detection.confidence, forKey: .confidence)
        try container.encode(detection.box, forKey: .box)
        try container.encode(direction.angleDegrees, forKey: .angleDegrees)
        try container.encode(direction.horizontal, forKey: .direction)
        try container.encode(direction.clockHour, forKey: .clockHour)
        try container.encode(direction.elevationDegrees, forKey: .elevationDegrees)
        try container.encode(direction.vertical, forKey: .verticalPosition)
        // Explicit nulls: a reader sees "no estimate", not a missing field.
        try container.encode(distance.meters, forKey: .distanceMeters)
        try container.encode(distance.method, forKey: .distanceMethod)
        try container.encode(distance.relativeError, forKey: .distanceRelativeError)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        detection = Detection(classIndex: try container.decode(Int.self, forKey: .classIndex),
                              label: try container.decode(String.self, forKey: .label),
                              confidence: try container.decode(Float.self, forKey: .confidence),
                              box: try container.decode(BoundingBox.self, forKey: .box))
        direction = Direction(angleDegrees: try container.decode(Double.self, forKey: .angleDegrees),
                              elevationDegrees: try container.decode(Double.self, forKey: .elevationDegrees),
                              horizontal: try container.decode(HorizontalDirection.self, forKey: .direction),
                              vertical: try container.decode(VerticalPosition.self, forKey: .verticalPosition),
                              clockHour: try container.decode(Int.self, forKey: .clockHour))
        let meters = try container.decodeIfPresent(Double.self, forKey: .distanceMeters)
        let method = try container.decodeIfPresent(DistanceMethod.self, forKey: .distanceMethod)
        let error = try container.decodeIfPresent(Double.self, forKey: .distanceRelativeError)
        if let meters, let method, meters.isFinite, meters > 0 {
            distance = DistanceEstimate(meters: meters, method: method, relativeError: error)
        } else {
            distance = .unknown
        }
    }
}

/// Turns a frame's detections into located objects: direction from the intrinsics, distance from
/// the depth map where it has enough readings on the object, otherwise from geometry.
public struct ObjectLocator: Sendable {
    public let camera: CameraSettings
    public let bands: DirectionBands
    public let sizes: ObjectSizeTable
    public let depthSampling: DepthSampling
    /// How far a depth map's reading is trusted, by where the map came from (`DepthMap.origin`).
    public let sensorRelativeError: Double
    public let depthModelRelativeError: Double

    /// A structured-light camera's error is about 1 % at 2–4 m (Khoshelham & Elberink 2012,
    /// Sensors 12:1437); 5 % allows for the core's median landing on a nearby surface.
    public static let defaultSensorRelativeError = 0.05
    /// Metric monocular depth models report AbsRel around 0.05–0.1 on indoor benchmarks
    /// (Depth Anything V2, Yang et al. 2024); 15 % allows for scenes unlike their training data.
    public static let defaultDepthModelRelativeError = 0.15

    public init(camera: CameraSettings = .chestWorn, bands: DirectionBands = .standard, sizes: ObjectSizeTable,
                depthSampling: DepthSampling = .standard,
                sensorRelativeError: Double = ObjectLocator.defaultSensorRelativeError,
                depthModelRelativeError: Double = ObjectLocator.defaultDepthModelRelativeError) {
        self.camera = camera
        self.bands = bands
        self.sizes = sizes
        self.depthSampling = depthSampling
        self.sensorRelativeError = sensorRelativeError
        self.depthModelRelativeError = depthModelRelativeError
    }

    /// With the bundled size table (all 80 COCO classes).
    public init(camera: CameraSettings = .chestWorn, bands: DirectionBands = .standard,
                depthSampling: DepthSampling = .standard) throws {
        self.init(camera: camera, bands: bands, sizes: try ObjectSizeTable.bundled(), depthSampling: depthSampling)
    }

    /// One `LocatedObject` per detection, in the same order.
    public func locate(_ detections: [Detection], in frame: Frame) throws -> [LocatedObject] {
        try locate(detections, imageWidth: frame.image.width, imageHeight: frame.image.height, depth: frame.depth)
    }

    /// The same without a `Frame`, for callers that have only the image size (and maybe depth).
    public func locate(_ detections: [Detection], imageWidth: Int, imageHeight: Int,
                       depth: DepthMap? = nil) throws -> [LocatedObject] {
        let intrinsics = try camera.intrinsics(imageWidth: imageWidth, imageHeight: imageHeight)
        let geometry = GeometricDistance(intrinsics: intrinsics, camera: camera, imageWidth: imageWidth,
                                         imageHeight: imageHeight, sizes: sizes)
        return detections.map { detection in
            let box = detection.box.clipped(width: imageWidth, height: imageHeight)
            let direction = Direction(
                angleDegrees: intrinsics.horizontalAngleDegrees(x: Double(box.centerX)),
                elevationDegrees: -(camera.pitchDownDegrees + intrinsics.angleBelowAxisDegrees(y: Double(box.centerY))),
                bands: bands)
            var distance = geometry.estimate(box: box, label: detection.label)
            if let depth, let meters = depthSampling.medianMeters(in: box, imageWidth: imageWidth,
                                                                   imageHeight: imageHeight, depth: depth) {
                switch depth.origin {
                case .sensor:
                    distance = DistanceEstimate(meters: meters, method: .measuredDepth, relativeError: sensorRelativeError)
                case .model:
                    distance = DistanceEstimate(meters: meters, method: .depthModel, relativeError: depthModelRelativeError)
                }
            }
            return LocatedObject(detection: detection, direction: direction, distance: distance)
        }
    }
}
