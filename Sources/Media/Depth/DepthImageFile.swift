import AssistCore
import Foundation

/// A depth camera's picture stored in a file: one 16-bit sample per pixel, whose meaning the
/// `encoding` gives (each dataset stores depth its own way).
public struct DepthImageFile: Sendable, Equatable {
    /// How a 16-bit sample becomes meters. The byte order comes from the container: PNG is
    /// always big-endian, PGM is big-endian as its specification says (except the NYU raw dump).
    public enum Encoding: Sendable, Equatable, CaseIterable {
        /// Millimeters, 0 = no reading: a 16-bit PGM (P5) or 16-bit PNG. The `*_depth_mm.pgm` files.
        case millimeters16
        /// TUM RGB-D: a 16-bit PNG, meters = value / 5000, 0 = no reading.
        case tum
        /// SUN RGB-D: a 16-bit PNG whose bits are rotated: mm = ((v >> 3) | (v << 13)) & 0xFFFF,
        /// 0 = no reading.
        case sunRotated
        /// NYU Depth v2 raw Kinect disparity: a P5 header over little-endian samples; 2047 = no
        /// reading; meters = 351.3 / (1092.5 − d) (the NYU toolbox's formula, also Open3D's).
        case nyuKinectDisparity
    }

    public let url: URL
    public let encoding: Encoding

    public init(_ url: URL, encoding: Encoding) {
        self.url = url
        self.encoding = encoding
    }

    /// The depth file stored beside a colour image, in millimeters: for `X_color.ext` or `X.ext`,
    /// `X_depth_mm.pgm`, else `X_depth_mm.png`; nil when neither exists.
    public static func companion(forColorImage colorImage: URL) -> DepthImageFile? {
        var stem = colorImage.deletingPathExtension().lastPathComponent
        if stem.hasSuffix("_color") { stem.removeLast("_color".count) }
        let folder = colorImage.deletingLastPathComponent()
        for fileExtension in ["pgm", "png"] {
            let candidate = folder.appendingPathComponent("\(stem)_depth_mm.\(fileExtension)")
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), !isFolder.boolValue {
                return DepthImageFile(candidate, encoding: .millimeters16)
            }
        }
        return nil
    }

    /// The depth in meters, NaN where the sensor gave no reading.
    public func decode() throws(DepthImageError) -> DepthMap {
        let samples = try readSamples()
        return DepthMap(width: samples.width, height: samples.height,
                        metersOrNaN: Self.meters(from: samples.values, encoding: encoding))
    }

    /// Throws `sizeMismatch` unless `depth` (read from this file) is the size of `color`.
    public func requireSameSize(_ depth: DepthMap, as color: RGBImage) throws(DepthImageError) {
        guard depth.width == color.width, depth.height == color.height else {
            throw .sizeMismatch(depthFile: url.path, depth: (depth.width, depth.height), color: (color.width, color.height))
        }
    }

    // MARK: - Samples

    private struct Samples {
        let width: Int
        let height: Int
        let values: [UInt16]
    }

    /// PGM by hand (see `PortableGraymap` for why); everything else, PNG above all, by FFmpeg.
    private func readSamples() throws(DepthImageError) -> Samples {
        let path = url.path
        if let problem = InputFileProblem.check(path: path) {
            throw DepthImageError(problem, path: path)
        }
        let bytes: Data
        do {
            bytes = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw .unreadable(path: path)
        }
        if PortableGraymap.isBinaryPGM(bytes) {
            return try samplesFromPGM(bytes, path: path)
        }
        let picture: FFmpegPicture
        do {
            picture = try FFmpegPicture.decodeFirstPicture(atPath: path)
        } catch {
            throw DepthImageError(error, path: path)
        }
        guard let values = picture.grayscale16Samples() else {
            throw .notADepthImage(path: path, found: picture.pixelFormatInWords)
        }
        return Samples(width: picture.width, height: picture.height, values: values)
    }

    private func samplesFromPGM(_ bytes: Data, path: String) throws(DepthImageError) -> Samples {
        let graymap: PortableGraymap
        do {
            graymap = try PortableGraymap(parsing: bytes)
        } catch {
            switch error {
            case .notBinaryPGM, .badHeader: throw .notADepthImage(path: path, found: "a PGM header that cannot be read")
            case .truncated: throw .damaged(path: path)
            }
        }
        guard graymap.bytesPerSample == 2 else {
            throw .notADepthImage(path: path, found: "an 8-bit grey picture")
        }
        // The NYU dump's P5 header claims big-endian like every PGM, but its samples are not.
        let byteOrder: PortableGraymap.ByteOrder = encoding == .nyuKinectDisparity ? .littleEndian : .bigEndian
        return Samples(width: graymap.width, height: graymap.height, values: graymap.samples16(byteOrder: byteOrder))
    }

    // MARK: - Meters

    static func meters(from samples: [UInt16], encoding: Encoding) -> [Float] {
        let toMeters: (UInt16) -> Float
        switch encoding {
        case .millimeters16:
            toMeters = { $0 == 0 ? .nan : Float($0) / 1000 }
        case .tum:
            toMeters = { $0 == 0 ? .nan : Float($0) / 5000 }
        case .sunRotated:
            toMeters = { sample in
                let millimeters = (sample >> 3) | (sample << 13)   // UInt16 shifts drop the bits past 16
                return millimeters == 0 ? .nan : Float(millimeters) / 1000
            }
        case .nyuKinectDisparity:
            toMeters = { disparity in
                guard disparity != 2047 else { return .nan }
                // Disparities at or past 1092.5 would be at or beyond infinity: no usable reading.
                let denominator = 1092.5 - Float(disparity)
                return denominator > 0 ? 351.3 / denominator : .nan
            }
        }
        return samples.map(toMeters)
    }
}
