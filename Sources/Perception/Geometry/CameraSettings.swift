import AssistCore
import Foundation

/// The pinhole camera's intrinsics, in pixels of the image the boxes refer to.
///
/// The principal point uses the same continuous coordinates as `BoundingBox` (the image spans
/// 0…width), so a centred camera has `principalPointXPixels == width / 2`. Calibrations that count
/// pixel centres from 0 (OpenCV, Open3D: cx = 319.5 for 640 columns) differ by half a pixel, which
/// changes an angle by less than 0.1°.
public struct CameraIntrinsics: Sendable, Equatable, Codable {
    public let focalLengthXPixels: Double
    public let focalLengthYPixels: Double
    public let principalPointXPixels: Double
    public let principalPointYPixels: Double

    /// Focal lengths a real camera can have for pictures up to 100,000 pixels across: a 1° field
    /// of view at that width is about 5.7 million pixels, and below 1 pixel nothing is resolved.
    /// Unbounded values made distances infinite and crashed (issue 16: 1e308).
    public static let focalLengthRangePixels: ClosedRange<Double> = 1...10_000_000
    /// The principal point lies on the picture or near it; these bounds only keep arithmetic finite.
    public static let principalPointRangePixels: ClosedRange<Double> = -1_000_000...1_000_000

    public init(focalLengthXPixels: Double, focalLengthYPixels: Double,
                principalPointXPixels: Double, principalPointYPixels: Double) throws {
        for (name, value) in [("focal length x", focalLengthXPixels), ("focal length y", focalLengthYPixels)]
        where !Self.focalLengthRangePixels.contains(value) {
            throw CameraSettingsError.focalLengthOutOfRange(name: name, value: value)
        }
        for (name, value) in [("principal point x", principalPointXPixels), ("principal point y", principalPointYPixels)]
        where !Self.principalPointRangePixels.contains(value) {
            throw CameraSettingsError.principalPointOutOfRange(name: name, value: value)
        }
        self.focalLengthXPixels = focalLengthXPixels
        self.focalLengthYPixels = focalLengthYPixels
        self.principalPointXPixels = principalPointXPixels
        self.principalPointYPixels = principalPointYPixels
    }

    /// Intrinsics of an ideal camera with square pixels and the principal point at the image centre:
    /// fx = fy = (width / 2) / tan(fov / 2).
    public init(horizontalFieldOfViewDegrees: Double, imageWidth: Int, imageHeight: Int) throws {
        try CameraSettings.validateFieldOfView(horizontalFieldOfViewDegrees)
        guard imageWidth > 0, imageHeight > 0 else {
            throw CameraSettingsError.imageSizeNotPositive(width: imageWidth, height: imageHeight)
        }
        let focal = Double(imageWidth) / 2 / tan(horizontalFieldOfViewDegrees / 2 * .pi / 180)
        try self.init(focalLengthXPixels: focal, focalLengthYPixels: focal,
                      principalPointXPixels: Double(imageWidth) / 2, principalPointYPixels: Double(imageHeight) / 2)
    }

    /// Degrees right of the optical axis of image column `x` (negative = left): atan((x − cx) / fx).
    public func horizontalAngleDegrees(x: Double) -> Double {
        atan((x - principalPointXPixels) / focalLengthXPixels) * 180 / .pi
    }

    /// Degrees below the optical axis of image row `y` (negative = above): atan((y − cy) / fy).
    public func angleBelowAxisDegrees(y: Double) -> Double {
        atan((y - principalPointYPixels) / focalLengthYPixels) * 180 / .pi
    }
}

/// How the camera's optics are known.
public enum CameraLens: Sendable, Equatable {
    /// Calibrated intrinsics, valid for images of the size they were calibrated at.
    case calibrated(CameraIntrinsics)
    /// Only the horizontal field of view is known; intrinsics follow from each image's size.
    case horizontalFieldOfView(degrees: Double)
    /// The field of view across the sensor's longer side, as camera specifications give it; right
    /// for a phone held either way (a 70° phone camera sees about 55° across a portrait 3:4 photo).
    case fieldOfViewAcrossLongerSide(degrees: Double)
}

/// Where the camera is and how it looks: the lens, its height above the floor and its tilt.
///
/// Defaults describe a chest-worn phone or camera: a 70° horizontal field of view (typical of
/// phone main cameras, 65–77°), 1.3 m above the floor (chest height of an adult of 1.7 m, about
/// 0.75 × stature), looking level.
public struct CameraSettings: Sendable, Equatable {
    public static let defaultHorizontalFieldOfViewDegrees = VisionLimits.defaultFieldOfViewDegrees
    public static let defaultHeightAboveFloorMeters = 1.3
    public static let defaultPitchDownDegrees = 0.0
    /// A worn or hand-held camera, or one on a pole or a balcony: higher is not a walking aid, and
    /// an unbounded height (1e308) made ground-contact distances infinite and crashed (issue 16).
    public static let maximumHeightAboveFloorMeters = 10.0

    public let lens: CameraLens
    public let heightAboveFloorMeters: Double
    /// Tilt of the optical axis below the horizon; positive = looking down, negative = looking up.
    public let pitchDownDegrees: Double

    public init(lens: CameraLens = .horizontalFieldOfView(degrees: CameraSettings.defaultHorizontalFieldOfViewDegrees),
                heightAboveFloorMeters: Double = CameraSettings.defaultHeightAboveFloorMeters,
                pitchDownDegrees: Double = CameraSettings.defaultPitchDownDegrees) throws {
        switch lens {
        case .horizontalFieldOfView(let degrees), .fieldOfViewAcrossLongerSide(let degrees):
            try Self.validateFieldOfView(degrees)
        case .calibrated:
            break
        }
        guard heightAboveFloorMeters > 0, heightAboveFloorMeters <= Self.maximumHeightAboveFloorMeters else {
            throw CameraSettingsError.heightOutOfRange(meters: heightAboveFloorMeters)
        }
        guard pitchDownDegrees.isFinite, abs(pitchDownDegrees) < 90 else {
            throw CameraSettingsError.pitchOutOfRange(degrees: pitchDownDegrees)
        }
        self.lens = lens
        self.heightAboveFloorMeters = heightAboveFloorMeters
        self.pitchDownDegrees = pitchDownDegrees
    }

    /// The defaults: 70° field of view, 1.3 m, level (valid by construction, so not throwing).
    public static let chestWorn = CameraSettings(
        validLens: .horizontalFieldOfView(degrees: defaultHorizontalFieldOfViewDegrees),
        heightAboveFloorMeters: defaultHeightAboveFloorMeters, pitchDownDegrees: defaultPitchDownDegrees)

    private init(validLens: CameraLens, heightAboveFloorMeters: Double, pitchDownDegrees: Double) {
        self.lens = validLens
        self.heightAboveFloorMeters = heightAboveFloorMeters
        self.pitchDownDegrees = pitchDownDegrees
    }

    /// The intrinsics for an image of this size.
    public func intrinsics(imageWidth: Int, imageHeight: Int) throws -> CameraIntrinsics {
        switch lens {
        case .calibrated(let intrinsics): return intrinsics
        case .horizontalFieldOfView(let degrees):
            return try CameraIntrinsics(horizontalFieldOfViewDegrees: degrees, imageWidth: imageWidth, imageHeight: imageHeight)
        case .fieldOfViewAcrossLongerSide(let degrees):
            guard imageWidth < imageHeight else {
                return try CameraIntrinsics(horizontalFieldOfViewDegrees: degrees, imageWidth: imageWidth, imageHeight: imageHeight)
            }
            // Portrait: the same focal length as the landscape picture, whose width is this height.
            let landscape = try CameraIntrinsics(horizontalFieldOfViewDegrees: degrees, imageWidth: imageHeight, imageHeight: imageWidth)
            return try CameraIntrinsics(focalLengthXPixels: landscape.focalLengthXPixels, focalLengthYPixels: landscape.focalLengthYPixels,
                                        principalPointXPixels: Double(imageWidth) / 2, principalPointYPixels: Double(imageHeight) / 2)
        }
    }

    static func validateFieldOfView(_ degrees: Double) throws {
        guard degrees.isFinite, VisionLimits.fieldOfViewDegrees.contains(degrees) else {
            throw CameraSettingsError.fieldOfViewOutOfRange(degrees: degrees)
        }
    }
}

/// A camera setting outside what a pinhole camera can have.
public enum CameraSettingsError: UserFacingError, Equatable {
    case fieldOfViewOutOfRange(degrees: Double)
    case heightOutOfRange(meters: Double)
    case pitchOutOfRange(degrees: Double)
    case focalLengthOutOfRange(name: String, value: Double)
    case principalPointOutOfRange(name: String, value: Double)
    case imageSizeNotPositive(width: Int, height: Int)
    /// Intrinsics written as something other than four numbers fx,fy,cx,cy.
    case intrinsicsNotFourNumbers

    public var userMessage: String {
        switch self {
        case .fieldOfViewOutOfRange(let degrees):
            let range = VisionLimits.fieldOfViewDegrees
            return "The camera's field of view must be from \(numberText(range.lowerBound)) to \(numberText(range.upperBound)) degrees, not \(numberText(degrees))."
        case .heightOutOfRange(let meters):
            return "The camera's height above the floor must be more than 0 and at most \(numberText(CameraSettings.maximumHeightAboveFloorMeters)) meters, not \(numberText(meters))."
        case .pitchOutOfRange(let degrees):
            return "The camera's downward tilt must be between -90 and 90 degrees (exclusive), not \(numberText(degrees))."
        case .focalLengthOutOfRange(let name, let value):
            let range = CameraIntrinsics.focalLengthRangePixels
            return "The camera's \(name) must be from \(numberText(range.lowerBound)) to \(numberText(range.upperBound)) pixels, not \(numberText(value))."
        case .principalPointOutOfRange(let name, let value):
            let range = CameraIntrinsics.principalPointRangePixels
            return "The camera's \(name) must be from \(numberText(range.lowerBound)) to \(numberText(range.upperBound)) pixels, not \(numberText(value))."
        case .imageSizeNotPositive(let width, let height):
            return "The image must be at least 1 by 1 pixel to measure angles in it, not \(width) by \(height)."
        case .intrinsicsNotFourNumbers:
            return "The camera intrinsics are four numbers in pixels: fx,fy,cx,cy (for example 525,525,319.5,239.5)."
        }
    }
}
