import Foundation

/// The strip of floor straight ahead that the user will walk through, and the camera geometry that
/// places image pixels on it.
///
/// Coordinates: forward along the floor in the direction the camera looks, lateral to the right,
/// both in meters from the point on the floor below the camera. The camera is `height` above a flat
/// floor and tilted `pitch` down (roll is assumed zero: a chest-worn camera hangs level).
public struct WalkingCorridor: Sendable, Equatable {
    /// Shoulder width of an adult is about 0.45 m; with a white cane's sweep and a margin for the
    /// camera's tilt, 0.9 m is the width that must be free to pass.
    public static let defaultWidthMeters = 0.9

    public let camera: CameraSettings
    public let widthMeters: Double

    public init(camera: CameraSettings = .chestWorn, widthMeters: Double = WalkingCorridor.defaultWidthMeters) {
        self.camera = camera
        self.widthMeters = widthMeters
    }

    /// Where the ray through image point (x, y) meets the floor: forward and lateral meters. nil
    /// when the ray does not go down to the floor (at or above the horizon).
    ///
    /// The ray (x', y', 1) with x' = (x − cx)/fx, y' = (y − cy)/fy, turned down by the pitch p,
    /// goes forward cos p − y' sin p and down y' cos p + sin p per unit, and meets the floor after
    /// height / down units: forward = h / tan(p + atan y'), the ground-contact formula of
    /// `GeometricDistance`.
    public func floorPoint(x: Double, y: Double, intrinsics: CameraIntrinsics) -> (forwardMeters: Double, lateralMeters: Double)? {
        let pitch = camera.pitchDownDegrees * .pi / 180
        let xRay = (x - intrinsics.principalPointXPixels) / intrinsics.focalLengthXPixels
        let yRay = (y - intrinsics.principalPointYPixels) / intrinsics.focalLengthYPixels
        let down = yRay * cos(pitch) + sin(pitch)
        guard down > 0 else { return nil }
        let scale = camera.heightAboveFloorMeters / down
        return ((cos(pitch) - yRay * sin(pitch)) * scale, xRay * scale)
    }

    /// A point the depth camera measured at image point (x, y), `depthMeters` along the optical
    /// axis (a depth map's Z): forward, lateral and height above the floor, in meters.
    public func measuredPoint(x: Double, y: Double, depthMeters z: Double,
                              intrinsics: CameraIntrinsics) -> (forwardMeters: Double, lateralMeters: Double, heightMeters: Double) {
        let pitch = camera.pitchDownDegrees * .pi / 180
        let xCamera = (x - intrinsics.principalPointXPixels) / intrinsics.focalLengthXPixels * z
        let yCamera = (y - intrinsics.principalPointYPixels) / intrinsics.focalLengthYPixels * z
        let down = yCamera * cos(pitch) + z * sin(pitch)
        let forward = z * cos(pitch) - yCamera * sin(pitch)
        return (forward, xCamera, camera.heightAboveFloorMeters - down)
    }

    /// The same formulas with the tilt's sine and cosine and each column's and row's ray worked
    /// out once per picture size, for the per-pixel loops of the obstacle detectors.
    struct Projection {
        let cosPitch: Double, sinPitch: Double, heightMeters: Double
        /// (x − cx) / fx at each column's centre, (y − cy) / fy at each row's centre.
        let columnRays: [Double], rowRays: [Double]

        init(corridor: WalkingCorridor, intrinsics: CameraIntrinsics, width: Int, height: Int) {
            let pitch = corridor.camera.pitchDownDegrees * .pi / 180
            cosPitch = cos(pitch)
            sinPitch = sin(pitch)
            heightMeters = corridor.camera.heightAboveFloorMeters
            columnRays = (0..<width).map { (Double($0) + 0.5 - intrinsics.principalPointXPixels) / intrinsics.focalLengthXPixels }
            rowRays = (0..<height).map { (Double($0) + 0.5 - intrinsics.principalPointYPixels) / intrinsics.focalLengthYPixels }
        }

        /// `measuredPoint` at the centre of pixel (x, y).
        @inline(__always)
        func measuredPoint(x: Int, y: Int, depthMeters z: Double) -> (forwardMeters: Double, lateralMeters: Double, heightMeters: Double) {
            let yCamera = rowRays[y] * z
            return (z * cosPitch - yCamera * sinPitch, columnRays[x] * z, heightMeters - (yCamera * cosPitch + z * sinPitch))
        }

        /// The forward distance of the floor seen at the centre of row y (the same in every
        /// column), nil at or above the horizon.
        func floorForwardMeters(row y: Int) -> Double? {
            let down = rowRays[y] * cosPitch + sinPitch
            guard down > 0 else { return nil }
            return (cosPitch - rowRays[y] * sinPitch) * heightMeters / down
        }
    }

    /// Whether a point `lateralMeters` to the side is inside the corridor.
    public func contains(lateralMeters: Double) -> Bool {
        abs(lateralMeters) <= widthMeters / 2
    }
}
