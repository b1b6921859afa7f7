import Foundation

/// Distance from the picture alone: the pinhole size cue and the ground-contact cue, combined.
///
/// Error model (estimates, stated so the weights can be argued with):
/// - A detector box edge is off by about 2 px plus 5 % of the object's extent (YOLO boxes that
///   match at IoU 0.9 differ by about 5 % per side).
/// - Size cue: relative error √(spread² + 0.05² + (2√2 px / extent)²), where spread is the class's
///   size variation from `object-sizes.json` (0.2 for people: children, sitting, bending).
/// - Ground contact, d = h / tan α: ∂d/d = −dα / (sin α cos α) and ∂d/d = ∂h/h, so its relative
///   error is √(0.05² + (σα / (sin α cos α))²) with σα = √(2°² + (2 px / fy)²): a chest-worn
///   camera's tilt is known to about ±2° and its height to about ±5 % (posture, clothing). This
///   error grows with distance (7 % at 2 m, 14 % at 5 m, 27 % at 10 m for 1.3 m), so near objects
///   lean on the floor and far ones on their size. A sloping floor or a step adds error not modelled.
public struct GeometricDistance: Sendable {
    public static let boxEdgeErrorPixels = 2.0
    public static let boxRelativeError = 0.05
    public static let pitchUncertaintyDegrees = 2.0
    public static let cameraHeightRelativeError = 0.05
    /// Below 2° of depression (37 m at 1.3 m) a 2° tilt error makes the floor cue meaningless.
    public static let minimumDepressionDegrees = 2.0

    public let intrinsics: CameraIntrinsics
    public let camera: CameraSettings
    public let imageWidth: Int
    public let imageHeight: Int
    public let sizes: ObjectSizeTable

    public init(intrinsics: CameraIntrinsics, camera: CameraSettings, imageWidth: Int, imageHeight: Int,
                sizes: ObjectSizeTable) {
        self.intrinsics = intrinsics
        self.camera = camera
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.sizes = sizes
    }

    /// The box's sides that touch the image border: there the object is cut off, so the box's
    /// extent is only a lower bound and its bottom is not where it meets the floor. "Touching" is
    /// within 0.5 % of the image size (at least 2 px), as detectors clip boxes at the border.
    public struct CutSides: Sendable, Equatable {
        public var left = false, top = false, right = false, bottom = false
        public var any: Bool { left || top || right || bottom }
    }

    public func cutSides(of box: BoundingBox) -> CutSides {
        let marginX = max(2, 0.005 * Float(imageWidth)), marginY = max(2, 0.005 * Float(imageHeight))
        return CutSides(left: box.x0 <= marginX, top: box.y0 <= marginY,
                        right: box.x1 >= Float(imageWidth) - marginX, bottom: box.y1 >= Float(imageHeight) - marginY)
    }

    /// Pinhole size cue: d = f · realSize / sizeInPixels, from every extent the table gives for the
    /// label and the box shows uncut (height with fy, width with fx, length against the diagonal).
    /// The extents share the class's size spread, so only their measurement errors are averaged.
    public func objectSizeCue(box: BoundingBox, label: String) -> DistanceCue? {
        guard let size = sizes[label] else { return nil }
        let cut = cutSides(of: box)
        var measurements: [DistanceCue] = []
        /// `meters` from one extent that spans `extentPixels` in the image.
        func add(meters: Double, extentPixels: Double) {
            guard extentPixels >= 1 else { return }
            let measurementError = (Self.boxRelativeError * Self.boxRelativeError
                + pow(2.squareRoot() * Self.boxEdgeErrorPixels / extentPixels, 2)).squareRoot()
            measurements.append(DistanceCue(meters: meters, relativeError: measurementError))
        }
        let fx = intrinsics.focalLengthXPixels, fy = intrinsics.focalLengthYPixels
        let widthPixels = Double(box.width), heightPixels = Double(box.height)
        if let height = size.heightMeters, !cut.top, !cut.bottom, heightPixels > 0 {
            add(meters: fy * height / heightPixels, extentPixels: heightPixels)
        }
        if let width = size.widthMeters, !cut.left, !cut.right, widthPixels > 0 {
            add(meters: fx * width / widthPixels, extentPixels: widthPixels)
        }
        if let length = size.lengthMeters, !cut.any, widthPixels > 0 || heightPixels > 0 {
            // The diagonal as an angle (in units of focal length), so unequal fx and fy stay exact.
            let angularDiagonal = (pow(widthPixels / fx, 2) + pow(heightPixels / fy, 2)).squareRoot()
            add(meters: length / angularDiagonal, extentPixels: (widthPixels * widthPixels + heightPixels * heightPixels).squareRoot())
        }
        guard let measured = DistanceCue.combined(measurements) else { return nil }
        let error = (size.relativeSpread * size.relativeSpread + measured.relativeError * measured.relativeError).squareRoot()
        return DistanceCue(meters: measured.meters, relativeError: error)
    }

    /// Ground-contact cue for objects standing on the floor: the box bottom row v is
    /// α = pitch + atan((v − cy) / fy) below the horizon, so d = h / tan α. `nil` when the class does
    /// not stand on the floor, when the bottom is cut by the image border (feet not in view), or
    /// when the bottom is not clearly below the horizon.
    public func groundContactCue(box: BoundingBox, label: String) -> DistanceCue? {
        guard let size = sizes[label], size.standsOnFloor, !cutSides(of: box).bottom else { return nil }
        let depressionDegrees = camera.pitchDownDegrees + intrinsics.angleBelowAxisDegrees(y: Double(box.y1))
        guard depressionDegrees >= Self.minimumDepressionDegrees else { return nil }
        let alpha = depressionDegrees * .pi / 180
        let meters = camera.heightAboveFloorMeters / tan(alpha)
        let sigmaAlpha = (pow(Self.pitchUncertaintyDegrees * .pi / 180, 2)
            + pow(Self.boxEdgeErrorPixels / intrinsics.focalLengthYPixels, 2)).squareRoot()
        let angleError = sigmaAlpha / (sin(alpha) * cos(alpha))
        let error = (Self.cameraHeightRelativeError * Self.cameraHeightRelativeError + angleError * angleError).squareRoot()
        return DistanceCue(meters: meters, relativeError: error)
    }

    /// Both cues, combined when both work (see `DistanceCue.combined`); `.unknown` when neither does.
    public func estimate(box: BoundingBox, label: String) -> DistanceEstimate {
        // A cue that is not a positive finite distance (a degenerate box, extreme intrinsics) is
        // dropped here: `DistanceEstimate` refuses such a value, and "unknown" is the honest answer.
        func usable(_ cue: DistanceCue?) -> DistanceCue? {
            guard let cue, cue.meters.isFinite, cue.meters > 0, cue.relativeError.isFinite, cue.relativeError > 0 else { return nil }
            return cue
        }
        let size = usable(objectSizeCue(box: box, label: label))
        let floor = usable(groundContactCue(box: box, label: label))
        switch (size, floor) {
        case let (size?, floor?):
            guard let both = usable(DistanceCue.combined([size, floor])) else { return .unknown }
            return DistanceEstimate(meters: both.meters, method: .combined, relativeError: both.relativeError)
        case let (size?, nil):
            return DistanceEstimate(meters: size.meters, method: .objectSize, relativeError: size.relativeError)
        case let (nil, floor?):
            return DistanceEstimate(meters: floor.meters, method: .groundContact, relativeError: floor.relativeError)
        case (nil, nil):
            return .unknown
        }
    }
}
