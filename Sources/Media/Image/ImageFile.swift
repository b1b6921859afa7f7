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
    /// Decodes once and converts once, straight into the returned pixel array; a turned photo is
    /// converted in small bands that are copied upright into the result as they come.
    public func decode() throws(ImageInputError) -> RGBImage {
        try decode(fittingWithin: nil)
    }

    /// The picture as `decode()` gives it, but scaled down (never up) while it is converted so
    /// that its longer side is at most `maximumSide` pixels: a search that works on a reduced
    /// picture anyway (a QR code's) never holds a full-size RGB copy of a 48-megapixel photo.
    /// A turned photo is turned at full size first.
    public func decode(fittingWithin maximumSide: Int?) throws(ImageInputError) -> RGBImage {
        let path = url.path
        if let problem = InputFileProblem.check(path: path) {
            throw ImageInputError(problem, path: path)
        }
        if let size = PictureSize.declared(atPath: path), size.pixels > PictureSize.maximumPixels {
            throw ImageInputError.tooLarge(path: path, size: size)
        }
        let picture: FFmpegPicture
        do { picture = try FFmpegPicture.decodeFirstPicture(atPath: path) } catch { throw ImageInputError(error, path: path) }
        guard min(picture.width, picture.height) >= PictureSize.minimumSide else {
            throw ImageInputError.tooSmall(path: path, size: PictureSize(width: picture.width, height: picture.height))
        }
        do {
            let orientation = Self.orientation(of: picture)
            guard orientation == .upright else { return try Self.uprightRGBImage(of: picture, orientation) }
            let longerSide = max(picture.width, picture.height)
            if let maximumSide, maximumSide > 0, longerSide > maximumSide {
                let scale = Double(maximumSide) / Double(longerSide)
                var converter: PixelConverter?
                return try picture.rgbImage(width: max(1, Int((Double(picture.width) * scale).rounded())),
                                            height: max(1, Int((Double(picture.height) * scale).rounded())), reusing: &converter)
            }
            return try Self.rgbImage(of: picture)
        } catch {
            throw ImageInputError(error, path: path)
        }
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

    /// A turned or mirrored photo: converted in bands of rows that are placed upright straight
    /// away, so the only full-size buffer is the result (for a 12-megapixel portrait this saves
    /// a 36 MB intermediate picture and most of the turning time).
    private static func uprightRGBImage(of picture: FFmpegPicture, _ orientation: ExifOrientation) throws(FFmpegPictureFailure) -> RGBImage {
        let (storedWidth, storedHeight) = (picture.width, picture.height)
        let upright = orientation.uprightSize(storedWidth: storedWidth, storedHeight: storedHeight)
        let count = upright.width * upright.height * 3
        var conversionFailure: FFmpegPictureFailure?
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            do throws(FFmpegPictureFailure) {
                try picture.convertToRGB24(inBandsOf: 16) { firstRow, band in
                    orientation.placeUpright(band: band, firstRow: firstRow, storedWidth: storedWidth,
                                             storedHeight: storedHeight, into: output)
                }
                initialized = count
            } catch {
                conversionFailure = error
            }
        }
        if let conversionFailure { throw conversionFailure }
        return RGBImage(width: upright.width, height: upright.height, pixels: pixels)
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
