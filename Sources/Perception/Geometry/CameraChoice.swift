import Foundation

/// Which side of the picture the field of view is measured across.
public enum FieldOfViewAxis: String, Sendable, CaseIterable {
    /// Across the picture's width, whatever its orientation.
    case horizontal
    /// Across the camera sensor's longer side, as specifications give it (right for phone photos).
    case longerSide = "longer-side"
}

/// How the user describes their camera (the `--fov`, `--intrinsics`, `--camera-height` and
/// `--camera-pitch` options): a field of view, or exact intrinsics, and how it is worn.
public struct CameraChoice: Sendable, Equatable {
    /// nil: the stored setting, else the default.
    public var fieldOfViewDegrees: Double?
    public var fieldOfViewAxis: FieldOfViewAxis
    /// "fx,fy,cx,cy" in pixels, instead of a field of view.
    public var intrinsics: String?
    public var heightAboveFloorMeters: Double
    public var pitchDownDegrees: Double

    public init(fieldOfViewDegrees: Double? = nil, fieldOfViewAxis: FieldOfViewAxis = .horizontal, intrinsics: String? = nil,
                heightAboveFloorMeters: Double = CameraSettings.defaultHeightAboveFloorMeters,
                pitchDownDegrees: Double = CameraSettings.defaultPitchDownDegrees) {
        self.fieldOfViewDegrees = fieldOfViewDegrees
        self.fieldOfViewAxis = fieldOfViewAxis
        self.intrinsics = intrinsics
        self.heightAboveFloorMeters = heightAboveFloorMeters
        self.pitchDownDegrees = pitchDownDegrees
    }

    /// A field of view given here wins over the stored one, which wins over the default.
    public func settings(storedFieldOfViewDegrees: Double? = nil) throws -> CameraSettings {
        let lens: CameraLens
        if let intrinsics {
            let numbers = intrinsics.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard numbers.count == 4 else { throw CameraSettingsError.intrinsicsNotFourNumbers }
            lens = .calibrated(try CameraIntrinsics(focalLengthXPixels: numbers[0], focalLengthYPixels: numbers[1],
                                                    principalPointXPixels: numbers[2], principalPointYPixels: numbers[3]))
        } else {
            let fov = fieldOfViewDegrees ?? storedFieldOfViewDegrees ?? CameraSettings.defaultHorizontalFieldOfViewDegrees
            lens = fieldOfViewAxis == .horizontal ? .horizontalFieldOfView(degrees: fov) : .fieldOfViewAcrossLongerSide(degrees: fov)
        }
        return try CameraSettings(lens: lens, heightAboveFloorMeters: heightAboveFloorMeters, pitchDownDegrees: pitchDownDegrees)
    }
}
