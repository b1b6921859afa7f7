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

    /// Scribbled strokes (short lines at every angle, drawn here from a fixed seed) are no text,
    /// but Tesseract reads some of their shapes as words. `assist read` reads a file through
    /// `PictureReading` (decode, `TextReader` with its `PlausibleText` filter, print and speak):
    /// none of those words may be printed or said, only "No text found.".
    @Test("strokes that Tesseract reads as words are neither printed nor said by the reading path")
    func strokesAreNotRead() throws {
        let folder = try TemporaryFolder.make("reading-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let strokes = Self.scribbles(width: 640, height: 480, seed: 38)
        let raw = folder.appendingPathComponent("strokes.rgb")
        try Data(strokes.pixels).write(to: raw)
        let file = folder.appendingPathComponent("strokes.png")
        try Program.ffmpeg(["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "640x480", "-i", raw.path, file.path])
        // Unfiltered, the engine finds "words" here: without them this test would show nothing.
        let engine = try TesseractEngine()
        let unfiltered = try engine.recognize(GrayImage(try ImageFile(file).decode()), segmentation: .sparseText)
        #expect(unfiltered.contains { $0.text.contains(where: \.isLetter) }, "\(unfiltered.map(\.text))")
        let phrases = try ReadingPhrases.bundled()
        let voice = RecordingVoice()
        let reading = PictureReading(reader: reader, phrases: phrases, effort: .thorough, wordsPerMinute: 175)
        let results = reading.read([file.path], voice: voice) { _ in }
        #expect(results.count == 1 && results[0].error == nil)
        #expect(results.first?.reading?.isEmpty == true, "\(results.first?.reading?.text ?? "")")
        #expect(voice.said == [[phrases.noText]])
    }

    /// A light sheet with `count` dark strokes 2–3 pixels wide and 8–40 long, at random angles.
    static func scribbles(width: Int, height: Int, seed: UInt64, count: Int = 600) -> RGBImage {
        var pixels = [UInt8](repeating: 235, count: width * height * 3)
        var state = seed
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        for _ in 0..<count {
            let (x0, y0) = (next() * Double(width), next() * Double(height))
            let angle = next() * .pi, length = 8 + next() * 32, thickness = 2 + Int(next() * 2)
            for step in 0..<Int(length) {
                let x = Int(x0 + cos(angle) * Double(step)), y = Int(y0 + sin(angle) * Double(step))
                for dy in 0..<thickness {
                    for dx in 0..<thickness where (0..<width).contains(x + dx) && (0..<height).contains(y + dy) {
                        let at = ((y + dy) * width + x + dx) * 3
                        pixels[at] = 20; pixels[at + 1] = 20; pixels[at + 2] = 20
                    }
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    @Test("a missing language is a typed error that names the package")
    func missingLanguage() {
        #expect(throws: TextRecognitionError.languageUnavailable("xxx")) { try TextReader(language: "xxx") }
        #expect(TextRecognitionError.languageUnavailable("xxx").userMessage.contains("tesseract-ocr-xxx"))
    }
}

/// Says nothing; keeps what it was given, in order.
private final class RecordingVoice: AnswerVoice {
    private(set) var said: [[String]] = []
    func sayAnswer(_ parts: [String], key: String) { said.append(parts) }
    func finish() throws {}
}
