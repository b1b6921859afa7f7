import AssistCore
import Foundation

/// A picture stored in a file: JPEG, PNG, WebP, BMP, PGM/PPM, TIFF, GIF (first frame), or any
/// other still format FFmpeg decodes.
public struct ImageFile: Sendable, Equatable {
    public let url: URL

    public init(_ url: URL) {
        self.url = url
    }

    /// The picture as 8-bit RGB, upright: a phone photo's EXIF orientation is applied, so a
    /// portrait photo comes out taller than wide whichever way the sensor stored it.
    ///
    /// Decodes once and converts once, straight into the returned pixel array; only an oriented
    /// photo costs one more pass (the rotation).
    public func decode() throws(ImageInputError) -> RGBImage {
        let path = url.path
        if let problem = InputFileProblem.check(path: path) {
            throw ImageInputError(problem, path: path)
        }
        let stored: RGBImage
        let orientation: ExifOrientation
        do {
            let picture = try FFmpegPicture.decodeFirstPicture(atPath: path)
            stored = try Self.rgbImage(of: picture)
            orientation = Self.orientation(of: picture)
        } catch {
            throw ImageInputError(error, path: path)
        }
        return orientation.uprightImage(fromStored: stored)
    }

    private static func rgbImage(of picture: FFmpegPicture) throws(FFmpegPictureFailure) -> RGBImage {
        let (width, height) = (picture.width, picture.height)
        let count = width * height * 3
        var conversionFailure: FFmpegPictureFailure?
        // The array is allocated with swscale's slack at the end but counts only the pixels, so
        // the conversion writes straight into the image's storage.
        let pixels = [UInt8](unsafeUninitializedCapacity: count + FFmpegPicture.destinationPaddingBytes) { buffer, initialized in
            do throws(FFmpegPictureFailure) {
                try picture.convertToRGB24(into: buffer, bytesPerRow: width * 3)
                initialized = count
            } catch {
                conversionFailure = error
            }
        }
        if let conversionFailure { throw conversionFailure }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// The display matrix is FFmpeg's format-independent way of saying how to turn a picture;
    /// the raw EXIF tag is the fallback for a decoder that exports only the tag.
    private static func orientation(of picture: FFmpegPicture) -> ExifOrientation {
        if let matrix = picture.displayMatrix, let orientation = ExifOrientation(displayMatrix: matrix) {
            return orientation
        }
        if let tag = picture.metadataValue(forKey: "Orientation"), let orientation = ExifOrientation(exifTagValue: tag) {
            return orientation
        }
        return .upright
    }
}
