import AssistCore
import Foundation
import Media
import TestSupport
import Testing
@testable import Reading

/// Key words as the shared set's rule finds them: case-insensitive, whitespace collapsed.
private func normalised(_ text: String) -> String {
    text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
}

@Suite("Reading text in pictures", .serialized)
struct TextReaderTests {
    let reader: TextReader

    init() throws {
        reader = try TextReader()
    }

    @Test("a reading whose time is spent before a pass can start is stopped with one sentence; with time, the same page is read")
    func timeLimit() throws {
        let page = try ReadingTestFiles.picture("tesseract_phototest.tif")
        #expect(throws: TextRecognitionError.timeLimit(seconds: 0)) { try reader.read(page, budget: .zero) }
        #expect(TextRecognitionError.timeLimit(seconds: 8).userMessage.hasPrefix("Reading this picture was stopped after 8 seconds"))
        // The time counts from when the work on the picture began (its decoding), not from the reading.
        let decodingBegan = ContinuousClock.now.advanced(by: .seconds(-9))
        #expect(throws: TextRecognitionError.timeLimit(seconds: 8)) { try reader.read(page, budget: .seconds(8), startedAt: decodingBegan) }
        // The engine is left without a deadline: the next reading has its own time.
        #expect(normalised(try reader.read(page, budget: .seconds(1_000)).text).contains("quick brown dog"))
    }

    @Test("a clean page is read with its key words")
    func cleanPage() throws {
        let reading = try reader.read(ReadingTestFiles.picture("tesseract_phototest.tif"))
        let text = normalised(reading.text)
        #expect(text.contains("12 point"))
        #expect(text.contains("quick brown dog"))
        #expect(text.contains("lazy fox"))
        #expect(reading.quarterTurnsApplied == 0)
    }

    @Test("an upside-down page is turned upright from its orientation and read")
    func upsideDownPage() throws {
        let reading = try reader.read(ReadingTestFiles.picture("tesseract_phototest-rotated-180.png"))
        #expect(reading.quarterTurnsApplied == 2)
        let text = normalised(reading.text)
        #expect(text.contains("12 point") && text.contains("quick brown dog") && text.contains("lazy fox"))
    }

    @Test("a page lying on its side (a quarter turn) is read upright, boxes inside the picture as given")
    func quarterTurnedPage() throws {
        let page = GrayImage(try ReadingTestFiles.picture("tesseract_phototest.tif"))
        let turned = RGBImage(gray: page.rotatedClockwise(quarterTurns: 1))
        let reading = try reader.read(turned)
        #expect(reading.quarterTurnsApplied == 3)
        #expect(normalised(reading.text).contains("quick brown dog"))
        // The page's first line runs down the right-hand side of the turned picture.
        let first = try #require(reading.lines.first).box
        #expect(first.x0 > Float(turned.width) / 2 && first.height > first.width)
        #expect(reading.lines.allSatisfy { $0.box.x1 <= Float(turned.width) && $0.box.y1 <= Float(turned.height) })
    }

    @Test("a page tilted by 6 degrees is levelled before reading")
    func tiltedPage() throws {
        let page = GrayImage(try ReadingTestFiles.picture("tesseract_phototest.tif"))
        let tilted = page.rotated(degrees: 6)
        let tilt = SkewEstimate.clockwiseTiltDegrees(of: tilted)
        #expect(abs(tilt - 6) <= 1)
        #expect(SkewEstimate.clockwiseTiltDegrees(of: page) == 0)
        let reading = try reader.read(RGBImage(gray: tilted))
        #expect(normalised(reading.text).contains("lazy fox"))
    }

    @Test("a picture without text reads as nothing, however hard the reader looks")
    func pictureWithoutText() throws {
        let pillow = try ReadingTestFiles.picture("vizwizgrounding_pillow.jpg")
        #expect(try reader.read(pillow).isEmpty)
        #expect(try reader.read(pillow, effort: .quick).isEmpty)
        #expect(try reader.read(RGBImage(width: 320, height: 240, filledWith: (128, 128, 128))).isEmpty)
    }

    @Test("a parking sign in a street photo is read")
    func streetSign() throws {
        let text = normalised(try reader.read(ReadingTestFiles.picture("opencv_scenetext01.jpg")).text)
        #expect(text.contains("parking"))
        #expect(text.contains("prohibited"))
    }

    /// A phone held sideways stores the street photo turned and says so in its EXIF Orientation
    /// tag (6: turn clockwise to show). The copy is made here by the ffmpeg tool and given the tag;
    /// decoded as `assist read` decodes it, it is read as the upright photo is.
    @Test("a photo stored turned with an EXIF orientation tag is read upright, its words found")
    func exifTurnedPhoto() throws {
        let folder = try TemporaryFolder.make("reading-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let stored = folder.appendingPathComponent("stored.jpg")
        try Program.ffmpeg(["-i", SharedFiles.text("opencv_scenetext01.jpg").path, "-vf", "transpose=cclock", "-q:v", "2", stored.path])
        let photo = folder.appendingPathComponent("phone.jpg")
        try ExifPhoto.insertingExifOrientation(6, byteOrder: .bigEndian, into: Data(contentsOf: stored)).write(to: photo)
        let upright = try ReadingTestFiles.picture("opencv_scenetext01.jpg")
        let image = try ImageFile(photo).decode()
        #expect(image.width == upright.width && image.height == upright.height)
        let reading = try reader.read(image)
        #expect(reading.quarterTurnsApplied == 0)
        let text = normalised(reading.text)
        #expect(text.contains("parking") && text.contains("prohibited"), "\(text)")
    }

    @Test("a missing language is a typed error that names the package")
    func missingLanguage() {
        #expect(throws: TextRecognitionError.languageUnavailable("xxx")) { try TextReader(language: "xxx") }
        #expect(TextRecognitionError.languageUnavailable("xxx").userMessage.contains("tesseract-ocr-xxx"))
    }
}
