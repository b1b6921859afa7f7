import AssistCore
import Foundation
import TestSupport
import Testing
@testable import Media

@Suite("Decoding image files")
struct ImageFileTests {
    // Expected means come from the ffmpeg tool's own decode:
    //   ffmpeg -i bus.jpg -f rawvideo -pix_fmt rgb24 bus.rgb
    // then the mean of each channel over the region (NumPy), rounded to 0.01.
    @Test("bus.jpg decodes to 810x1080 with the colours the ffmpeg tool gives")
    func busDecodes() throws {
        let image = try ImageFile(SharedFiles.bus).decode()
        #expect(image.width == 810 && image.height == 1080)
        expectMean(image.meanColour(), near: (116.82, 114.67, 117.69))
        expectMean(image.meanColour(x: 0, y: 0, width: 100, height: 100), near: (199.60, 175.08, 134.83))
        expectMean(image.meanColour(x: 305, y: 440, width: 200, height: 200), near: (57.58, 85.03, 118.63))
        expectMean(image.meanColour(x: 0, y: 980, width: 810, height: 100), near: (123.13, 118.31, 123.72))
    }

    @Test("zidane.jpg decodes to 1280x720 with the colours the ffmpeg tool gives")
    func zidaneDecodes() throws {
        let image = try ImageFile(SharedFiles.zidane).decode()
        #expect(image.width == 1280 && image.height == 720)
        expectMean(image.meanColour(), near: (68.98, 57.47, 50.97))
        expectMean(image.meanColour(x: 0, y: 0, width: 100, height: 100), near: (81.45, 51.29, 39.26))
        expectMean(image.meanColour(x: 540, y: 260, width: 200, height: 200), near: (89.67, 69.64, 52.07))
        expectMean(image.meanColour(x: 0, y: 620, width: 1280, height: 100), near: (34.20, 35.35, 31.95))
    }

    @Test("every coco128 photo decodes to the size the ffmpeg tool reports, pixel for pixel close to its decode")
    func coco128MatchesTheTool() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let images = try FileManager.default.contentsOfDirectory(at: SharedFiles.data("coco128/images/train2017"),
                                                                 includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "jpg" }.sorted { $0.path < $1.path }
        #expect(images.count == 128)
        // Every 16th photo through the tool (the tool is slow to start); every photo through us.
        for (index, url) in images.enumerated() {
            let image = try ImageFile(url).decode()
            #expect(image.width > 0 && image.height > 0)
            guard index % 16 == 0 else { continue }
            let reference = try referenceDecode(of: url, width: image.width, height: image.height, in: folder)
            let difference = image.meanAbsoluteDifference(from: reference)
            #expect(difference < 0.5, "\(url.lastPathComponent): mean difference \(difference)")
        }
    }

    // swscale's fast YUV-to-RGB path needs an even number of rows, so an odd-height photo is
    // converted as its even part plus its last row. The even part must match what the tool gives
    // for that part alone (the tool takes the fast path there too), and no row may be lost.
    @Test("an odd-height photo (640x425) keeps all its rows and its colours match the ffmpeg tool's")
    func oddHeightPhoto() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = SharedFiles.data("coco128/images/train2017/000000000034.jpg")
        let image = try ImageFile(photo).decode()
        #expect(image.width == 640 && image.height == 425)
        let raw = folder.appendingPathComponent("even-part.rgb")
        try Program.ffmpeg(["-i", photo.path, "-vf", "crop=640:424:0:0", "-f", "rawvideo", "-pix_fmt", "rgb24", raw.path])
        let evenPart = RGBImage(width: 640, height: 424, pixels: Array(image.pixels.prefix(640 * 424 * 3)))
        #expect(evenPart.meanAbsoluteDifference(from: RGBImage(width: 640, height: 424, pixels: [UInt8](try Data(contentsOf: raw)))) < 0.5)
        // The last row is converted on its own; it must look like the row above it, not be left empty.
        let lastRow = image.meanColour(x: 0, y: 424, width: 640, height: 1)
        let rowAbove = image.meanColour(x: 0, y: 423, width: 640, height: 1)
        #expect(abs(lastRow.r - rowAbove.r) + abs(lastRow.g - rowAbove.g) + abs(lastRow.b - rowAbove.b) < 15)
    }

    // Each copy must match the ffmpeg tool's decode of that same copy (so the format is read right)
    // and the JPEG it was made from within what the format loses (GIF has only 256 colours).
    @Test("PNG, WebP, BMP, TIFF, PPM and GIF copies of bus.jpg decode to the same picture",
          arguments: [("png", "rgb24", 0.6), ("bmp", "bgr24", 0.6), ("tiff", "rgb24", 0.6), ("ppm", "rgb24", 0.6),
                      ("webp", "yuv420p", 4.0), ("gif", "pal8", 20.0)])
    func otherFormatsRoundTrip(format: String, pixelFormat: String, lossTolerance: Double) throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("bus.\(format)")
        try Program.ffmpeg(["-i", SharedFiles.bus.path, "-pix_fmt", pixelFormat, copy.path])
        let original = try ImageFile(SharedFiles.bus).decode()
        let decoded = try ImageFile(copy).decode()
        #expect(decoded.width == 810 && decoded.height == 1080)
        let reference = try referenceDecode(of: copy, width: 810, height: 1080, in: folder)
        #expect(decoded.meanAbsoluteDifference(from: reference) < 0.5)
        #expect(decoded.meanAbsoluteDifference(from: original) < lossTolerance)
    }

    @Test("a greyscale PGM decodes to equal red, green and blue")
    func greyscaleBecomesGreyRGB() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let grey = folder.appendingPathComponent("bus.pgm")
        try Program.ffmpeg(["-i", SharedFiles.bus.path, "-pix_fmt", "gray", grey.path])
        let image = try ImageFile(grey).decode()
        #expect(image.width == 810 && image.height == 1080)
        var unequalPixels = 0
        for i in stride(from: 0, to: image.pixels.count, by: 3) {
            let (r, g, b) = (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2])
            if r != g || r != b { unequalPixels += 1 }
        }
        #expect(unequalPixels == 0)
        // Grey is the luma of the colours, so its mean sits between the colour means.
        #expect(abs(image.meanColour().r - 115.5) < 3)
    }

    @Test("file names with %, : and * are opened as they are, not as patterns or protocols",
          arguments: ["photo%d.jpg", "photo%03d.jpg", "photo:1.jpg", "photo*.jpg", "photo 100%.jpg"])
    func unusualNames(name: String) throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent(name)
        try FileManager.default.copyItem(at: SharedFiles.zidane, to: copy)
        let image = try ImageFile(copy).decode()
        #expect(image.width == 1280 && image.height == 720)
    }

    @Test("decoding the same file twice gives the same pixels")
    func decodingIsRepeatable() throws {
        #expect(try ImageFile(SharedFiles.bus).decode() == ImageFile(SharedFiles.bus).decode())
    }

    private func referenceDecode(of url: URL, width: Int, height: Int, in folder: URL) throws -> RGBImage {
        let raw = folder.appendingPathComponent(url.deletingPathExtension().lastPathComponent + ".rgb")
        try Program.ffmpeg(["-i", url.path, "-f", "rawvideo", "-pix_fmt", "rgb24", raw.path])
        return RGBImage(width: width, height: height, pixels: [UInt8](try Data(contentsOf: raw)))
    }

    private func expectMean(_ mean: (r: Double, g: Double, b: Double), near expected: (Double, Double, Double),
                            sourceLocation: SourceLocation = #_sourceLocation) {
        let close = abs(mean.r - expected.0) < 1 && abs(mean.g - expected.1) < 1 && abs(mean.b - expected.2) < 1
        #expect(close, "mean \(mean) expected \(expected)", sourceLocation: sourceLocation)
    }
}
