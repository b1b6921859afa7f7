/// Measured distance per pixel, in meters, rows top to bottom.
///
/// A pixel with no reading (a hole in a depth camera's image) holds `nil` through `meters(x:y:)`;
/// it is stored as NaN so the map stays one flat array of `Float`.
public struct DepthMap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height` values in meters; NaN where the sensor gave no reading.
    public var metersOrNaN: [Float]
    /// Measured by a sensor, or estimated by a depth model: reported with every distance.
    public var origin: DepthOrigin

    public init(width: Int, height: Int, metersOrNaN: [Float], origin: DepthOrigin = .sensor) {
        precondition(width >= 0 && height >= 0 && metersOrNaN.count == width * height,
                     "DepthMap needs width*height values")
        self.width = width
        self.height = height
        self.metersOrNaN = metersOrNaN
        self.origin = origin
    }

    public func meters(x: Int, y: Int) -> Float? {
        let value = metersOrNaN[y * width + x]
        return value.isNaN ? nil : value
    }

    /// The share of pixels that carry a reading, 0…1.
    public var validFraction: Double {
        guard !metersOrNaN.isEmpty else { return 0 }
        return Double(metersOrNaN.lazy.filter { !$0.isNaN }.count) / Double(metersOrNaN.count)
    }
}

/// Where a depth map's numbers come from.
public enum DepthOrigin: String, Sendable, Equatable, Codable {
    /// A depth camera or a recorded depth image.
    case sensor
    /// A learned monocular depth model (`--depth-model`).
    case model
}
