import AssistCore
import Foundation
import Media
import TestSupport
import Testing

@Suite("Pictures are encoded as JPEG in memory, for the web app's view")
struct JPEGEncoderTests {
    /// Mean of each channel, for comparing a picture with its JPEG (which is lossy).
    static func meanColour(_ image: RGBImage) -> [Double] {
        var sums = [0.0, 0.0, 0.0]
        for index in stride(from: 0, to: image.pixels.count, by: 3) {
            for channel in 0..<3 { sums[channel] += Double(image.pixels[index + channel]) }
        }
        return sums.map { $0 / Double(image.width * image.height) }
    }

    @Test("bus.jpg encoded and decoded again keeps its size and colours")
    func roundTrip() throws {
        let original = try ImageFile(SharedFiles.bus).decode()
        let jpeg = try JPEGEncoder().encode(original)
        #expect((jpeg.width, jpeg.height) == (810, 1080))
        #expect(jpeg.bytes.prefix(2) == [0xFF, 0xD8])
        // Quantiser 5: a fraction of the raw picture's 2.6 MB.
        #expect(jpeg.bytes.count < original.pixels.count / 8)
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("encoded.jpg")
        try Data(jpeg.bytes).write(to: file)
        let decoded = try ImageFile(file).decode()
        #expect((decoded.width, decoded.height) == (810, 1080))
        for (before, after) in zip(Self.meanColour(original), Self.meanColour(decoded)) {
            #expect(abs(before - after) < 3, "mean channel \(before) became \(after)")
        }
    }

    @Test("a wide picture is scaled to the maximum width, keeping its shape; an odd size is encoded whole")
    func scaledAndOdd() throws {
        let wide = RGBImage(width: 1920, height: 1080, filledWith: (255, 212, 0))
        let scaled = try JPEGEncoder(maximumWidthPixels: 960).encode(wide)
        #expect((scaled.width, scaled.height) == (960, 540))
        let odd = try JPEGEncoder().encode(RGBImage(width: 33, height: 17, filledWith: (10, 20, 200)))
        #expect((odd.width, odd.height) == (33, 17))
        #expect(odd.bytes.suffix(2) == [0xFF, 0xD9])
    }

    @Test("an empty picture is refused in a sentence")
    func empty() {
        #expect(throws: PictureEncodingError.emptyPicture) { try JPEGEncoder().encode(RGBImage(width: 0, height: 0, pixels: [])) }
        #expect(PictureEncodingError.emptyPicture.userMessage == "The picture to show is empty.")
    }
}
