import AssistCore
import Foundation
import TestSupport
import Testing
@testable import Media

@Suite("Phone photos come out upright")
struct ExifOrientationTests {
    /// The upright test picture, 64 wide and 48 tall: red top-left, green top-right, blue
    /// bottom-left, white bottom-right. Every one of the eight orientations changes it visibly.
    static let upright: RGBImage = {
        let (width, height) = (64, 48)
        var pixels = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                let quadrant: [UInt8] = switch (x < width / 2, y < height / 2) {
                case (true, true): [255, 0, 0]
                case (false, true): [0, 255, 0]
                case (true, false): [0, 0, 255]
                case (false, false): [255, 255, 255]
                }
                pixels += quadrant
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }()

    /// What a camera stores for each orientation, made from the upright picture by the ffmpeg
    /// tool's own filters (independent of our code): the inverse of what the tag asks for.
    static let storingFilter: [Int: String] = [
        1: "null", 2: "hflip", 3: "hflip,vflip", 4: "vflip",
        5: "transpose=cclock_flip", 6: "transpose=cclock", 7: "transpose=clock_flip", 8: "transpose=clock",
    ]

    @Test("a JPEG with each EXIF orientation, in either byte order, decodes upright",
          arguments: 1...8, [ExifPhoto.ByteOrder.littleEndian, .bigEndian])
    func orientedJPEGDecodesUpright(orientation: Int, byteOrder: ExifPhoto.ByteOrder) throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let uprightFile = folder.appendingPathComponent("upright.ppm")
        try Data("P6\n64 48\n255\n".utf8 + Self.upright.pixels).write(to: uprightFile)
        let stored = folder.appendingPathComponent("stored.jpg")
        try Program.ffmpeg(["-i", uprightFile.path, "-vf", Self.storingFilter[orientation]!, "-q:v", "2", stored.path])
        let photo = folder.appendingPathComponent("photo.jpg")
        try ExifPhoto.insertingExifOrientation(orientation, byteOrder: byteOrder, into: Data(contentsOf: stored)).write(to: photo)

        let image = try ImageFile(photo).decode()

        #expect(image.width == 64 && image.height == 48)
        expectColour(image.pixel(x: 16, y: 12), near: (255, 0, 0), "top-left")
        expectColour(image.pixel(x: 48, y: 12), near: (0, 255, 0), "top-right")
        expectColour(image.pixel(x: 16, y: 36), near: (0, 0, 255), "bottom-left")
        expectColour(image.pixel(x: 48, y: 36), near: (255, 255, 255), "bottom-right")
    }

    // bus.jpg is an iPhone XS photo whose own EXIF says Orientation 1 (big-endian IFD entry
    // 0112 0003 00000001 0001). Changing that one value is exactly what the phone writes when held
    // upright or upside down, so the result must be the ffmpeg tool's own turn of the picture.
    @Test("an iPhone photo whose EXIF orientation is changed to 6 or 8 comes out turned, 1080 wide",
          arguments: [(6, "transpose=clock"), (8, "transpose=cclock")])
    func iPhonePhotoTurned(orientation: UInt8, turningFilter: String) throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes = [UInt8](try Data(contentsOf: SharedFiles.bus))
        let entry: [UInt8] = [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]
        let entryStart = try #require((0..<(bytes.count - entry.count)).first { Array(bytes[$0..<($0 + entry.count)]) == entry })
        bytes[entryStart + 9] = orientation
        let photo = folder.appendingPathComponent("portrait.jpg")
        try Data(bytes).write(to: photo)
        let raw = folder.appendingPathComponent("turned.rgb")
        try Program.ffmpeg(["-i", SharedFiles.bus.path, "-vf", turningFilter, "-f", "rawvideo", "-pix_fmt", "rgb24", raw.path])

        let image = try ImageFile(photo).decode()

        #expect(image.width == 1080 && image.height == 810)
        let reference = RGBImage(width: 1080, height: 810, pixels: [UInt8](try Data(contentsOf: raw)))
        #expect(image.meanAbsoluteDifference(from: reference) < 0.5)
    }

    // A turned photo is converted in bands of 16 rows; 250 rows leave a short last band, an odd
    // width odd chroma columns. The result must equal converting the whole picture and turning it.
    // (At an odd height the two may differ by rounding: swscale's fast YUV-to-RGB path needs an
    // even number of rows, so a whole odd picture takes the general path and the bands do not.)
    @Test("a turned photo converted band by band equals the whole picture turned",
          arguments: [3, 6, 8], ["yuvj420p", "yuvj422p", "yuvj444p"])
    func bandsEqualWholePicture(orientation: Int, pixelFormat: String) throws {
        for (height, tolerance) in [(250, 0.0), (251, 1.5)] {
            let folder = try TemporaryFolder.make("media-tests")
            defer { try? FileManager.default.removeItem(at: folder) }
            let plain = folder.appendingPathComponent("plain.jpg")
            try Program.ffmpeg(["-i", SharedFiles.zidane.path, "-vf", "scale=333:\(height)", "-pix_fmt", pixelFormat, plain.path])
            let photo = folder.appendingPathComponent("turned.jpg")
            try ExifPhoto.insertingExifOrientation(orientation, byteOrder: .bigEndian, into: Data(contentsOf: plain)).write(to: photo)

            let stored = try ImageFile(plain).decode()
            let expected = try #require(ExifOrientation(rawValue: orientation)).uprightImage(fromStored: stored)
            let turned = try ImageFile(photo).decode()

            #expect(turned.width == expected.width && turned.height == expected.height)
            let difference = turned.meanAbsoluteDifference(from: expected)
            #expect(difference <= tolerance, "333x\(height): mean difference \(difference)")
        }
    }

    @Test("FFmpeg's Orientation metadata value, padded with spaces, is read as the tag number")
    func tagValueParsing() {
        #expect(ExifOrientation(exifTagValue: "    6") == .rotate90Clockwise)
        #expect(ExifOrientation(exifTagValue: "8") == .rotate90CounterClockwise)
        #expect(ExifOrientation(exifTagValue: "    1") == .upright)
        #expect(ExifOrientation(exifTagValue: "9") == nil)
        #expect(ExifOrientation(exifTagValue: "0") == nil)
        #expect(ExifOrientation(exifTagValue: "top-left") == nil)
    }

    // The matrices are the ones FFmpeg 5.1 attaches for tags 6 and 2 (seen with ffprobe -show_frames).
    @Test("FFmpeg's display matrix is read as the orientation it came from")
    func displayMatrixParsing() {
        #expect(ExifOrientation(displayMatrix: [0, 65536, 0, -65536, 0, 0, 0, 0, 1 << 30]) == .rotate90Clockwise)
        #expect(ExifOrientation(displayMatrix: [-65536, 0, 0, 0, 65536, 0, 0, 0, 1 << 30]) == .flipHorizontally)
        #expect(ExifOrientation(displayMatrix: [65536, 0, 0, 0, 65536, 0, 0, 0, 1 << 30]) == .upright)
        #expect(ExifOrientation(displayMatrix: [46341, 46341, 0, -46341, 46341, 0, 0, 0, 1 << 30]) == nil)   // 45°
        #expect(ExifOrientation(displayMatrix: [1, 2, 3]) == nil)
    }

    @Test("turning a picture clockwise swaps its width and height and moves its top-left corner to the top-right")
    func clockwiseTurn() {
        // Stored 3 wide, 2 tall; pixel values are their stored index.
        let stored = RGBImage(width: 3, height: 2, pixels: (0..<6).flatMap { [UInt8($0), 0, 0] })
        let turned = ExifOrientation.rotate90Clockwise.uprightImage(fromStored: stored)
        #expect(turned.width == 2 && turned.height == 3)
        #expect(stride(from: 0, to: turned.pixels.count, by: 3).map { turned.pixels[$0] } == [3, 0, 4, 1, 5, 2])
    }

    private func expectColour(_ pixel: (r: UInt8, g: UInt8, b: UInt8), near expected: (Int, Int, Int), _ place: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let distance = abs(Int(pixel.r) - expected.0) + abs(Int(pixel.g) - expected.1) + abs(Int(pixel.b) - expected.2)
        #expect(distance < 60, "\(place) is \(pixel), expected \(expected)", sourceLocation: sourceLocation)
    }
}
