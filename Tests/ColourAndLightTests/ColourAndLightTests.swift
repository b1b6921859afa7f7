import AssistCore
import Foundation
import TestSupport
import Media
import Speech
import Testing
@testable import ColourAndLight

/// A made-up view: a patch of `colour` in the centre of grey, white and black surroundings, lit by a
/// light that falls from full on the left to `darkest` on the right and tinted by `tint` (R, G, B gains).
private func patch(_ colour: (Double, Double, Double), darkest: Double = 1, tint: (Double, Double, Double) = (1, 1, 1),
                   width: Int = 240, height: Int = 180) -> RGBImage {
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
        for x in 0..<width {
            let inCentre = x >= width / 4 && x < 3 * width / 4 && y >= height / 4 && y < 3 * height / 4
            let surround: (Double, Double, Double) = (x / 20 + y / 20) % 3 == 0 ? (235, 235, 235) : (x / 20 + y / 20) % 3 == 1 ? (128, 128, 128) : (40, 40, 40)
            let base = inCentre ? colour : surround
            let light = 1 - (1 - darkest) * Double(x) / Double(width - 1)
            // Light acts on linear values: decode sRGB, scale, encode again.
            func lit(_ v: Double, _ gain: Double) -> UInt8 {
                let linear = ColourNamer.decode(UInt8(v)) * light * gain
                let encoded = linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
                return UInt8(max(0, min(255, (encoded * 255).rounded())))
            }
            let i = (y * width + x) * 3
            pixels[i] = lit(base.0, tint.0); pixels[i + 1] = lit(base.1, tint.1); pixels[i + 2] = lit(base.2, tint.2)
        }
    }
    return RGBImage(width: width, height: height, pixels: pixels)
}

@Suite("Colour and light")
struct ColourAndLightTests {
    static let colours: [(BasicColour, (Double, Double, Double))] = [
        (.red, (200, 30, 30)), (.orange, (240, 140, 20)), (.yellow, (235, 215, 40)), (.green, (40, 150, 60)),
        (.blue, (30, 70, 190)), (.purple, (110, 40, 140)), (.pink, (250, 150, 190)), (.brown, (120, 70, 30)),
        (.white, (245, 245, 245)), (.black, (15, 15, 15)), (.grey, (128, 128, 128)),
    ]

    @Test("each basic colour is named in even light", arguments: colours.indices)
    func evenLight(_ index: Int) {
        let (expected, rgb) = Self.colours[index]
        #expect(ColourNamer().read(patch(rgb)).centre.colour == expected)
    }

    @Test("each basic colour keeps its name when the light falls off to a third across the view", arguments: colours.indices)
    func unevenLight(_ index: Int) {
        let (expected, rgb) = Self.colours[index]
        #expect(ColourNamer().read(patch(rgb, darkest: 0.35)).centre.colour == expected)
    }

    @Test("each chromatic colour keeps its name under warm, uneven light (a tungsten bulb to one side)", arguments: colours.indices)
    func tintedLight(_ index: Int) {
        let (expected, rgb) = Self.colours[index]
        guard expected != .black && expected != .grey else { return }
        let reading = ColourNamer().read(patch(rgb, darkest: 0.5, tint: (1.0, 0.8, 0.55)))
        #expect(reading.centre.colour == expected)
        #expect(reading.lightCorrection[2] > reading.lightCorrection[0], "blue must be raised against the warm light")
    }

    @Test("main colours come with shares that add up to at most 1, largest first, at most three")
    func mainColours() {
        var image = patch((30, 70, 190))
        // A white stripe over the left third of the centre.
        for y in 45..<135 { for x in 60..<100 { let i = (y * 240 + x) * 3; image.pixels[i] = 245; image.pixels[i + 1] = 245; image.pixels[i + 2] = 245 } }
        let reading = ColourNamer().read(image)
        #expect(reading.mainColours.count <= 3)
        #expect(reading.mainColours.map(\.colour.colour).prefix(2) == [.blue, .white])
        #expect(reading.mainColours.map(\.share).reduce(0, +) <= 1.0001)
        let phrases = try! ColourAndLightPhrases.bundled()
        #expect(phrases.sentence(for: reading).lowercased().hasSuffix("blue, with white."))
    }

    @Test("a photographed book cover is white in the centre, also under a warm light")
    func photograph() throws {
        let cover = try ImageFile(SharedFiles.data("text/vizwizgrounding_EK.jpg")).decode()
        #expect(ColourNamer().read(cover).centre.colour == .white)
        var warm = cover
        for i in stride(from: 0, to: warm.pixels.count, by: 3) {
            warm.pixels[i + 1] = UInt8(Double(warm.pixels[i + 1]) * 0.85)
            warm.pixels[i + 2] = UInt8(Double(warm.pixels[i + 2]) * 0.6)
        }
        #expect(ColourNamer().read(warm).centre.colour == .white)
    }

    @Test("the bus in bus.jpg is named blue")
    func bus() throws {
        let bus = try ImageFile(SharedFiles.data("images/bus.jpg")).decode()
        let reading = ColourNamer().read(bus)
        #expect(reading.mainColours.contains { $0.colour.colour == .blue })
    }

    @Test("the light's pitch rises as a video fades from dark to bright, and the answer follows")
    func fadingVideo() throws {
        let folder = try TemporaryFolder.make("light-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("fade.mp4")
        try Program.ffmpeg(["-f", "lavfi", "-i", "color=c=white:s=160x120:r=10:d=4",
                            "-vf", "fade=t=in:st=0:d=4", "-c:v", "mpeg4", "-q:v", "2", video.path])
        let source = try VideoFrameSource(.file(video))
        let meter = LightMeter()
        var pitches: [Double] = []
        var levels: [LightLevel] = []
        while let frame = try source.nextFrame() {
            let brightness = meter.brightness(of: frame.image)
            pitches.append(meter.pitchHz(forBrightness: brightness))
            levels.append(meter.level(forBrightness: brightness))
        }
        try #require(pitches.count >= 30)
        #expect(zip(pitches, pitches.dropFirst()).allSatisfy { $1 >= $0 - 1 }, "the pitch never falls while the light rises")
        #expect(pitches.last! > 4 * pitches.first!, "two octaves or more from dark to bright")
        #expect(levels.first == .dark && levels.last == .bright)
        let phrases = try ColourAndLightPhrases.bundled()
        #expect(phrases.sentence(for: levels.last!) == "The room is bright.")
        #expect(phrases.sentence(for: levels.first!) == "It is dark.")
    }

    @Test("the tone glides without a jump: consecutive samples stay close when the pitch changes")
    func toneIsContinuous() {
        var tone = ContinuousTone(sampleRateHz: 22050)
        let low = tone.render(frameCount: 2205, towards: 200)
        let high = tone.render(frameCount: 2205, towards: 1600)
        let samples = low + high
        let largestStep = zip(samples, samples.dropFirst()).map { abs($1 - $0) }.max()!
        // A 1600 Hz sine of amplitude 0.2 moves at most 2π·1600/22050·0.2 ≈ 0.09 per sample.
        #expect(largestStep < 0.1)
        #expect(tone.pitchHz == 1600)
    }
}

@Suite("assist colour and assist light, run in process")
struct PictureColourAndLightRunTests {
    @Test("each picture gets its sentence in order; one that cannot be read gets one naming it, and the others are still said")
    func coloursOfPictures() throws {
        let bus = SharedFiles.data("images/bus.jpg").path
        var seen: [String] = []
        let results = PictureColours(phrases: try ColourAndLightPhrases.bundled())
            .describe([bus, "/nonexistent/wall.jpg"], voice: nil) { seen.append($0.source) }
        #expect(seen == ["bus.jpg", "wall.jpg"])
        #expect(results[0].sentence?.isEmpty == false && results[0].error == nil)
        #expect(results[1].sentence == nil)
        #expect(results[1].error?.contains("wall.jpg") == true)
    }

    @Test("a picture is one light sample at 0 s, and its tone lasts half a second")
    func lightOfPicture() throws {
        let reading = try LightReading(input: SharedFiles.data("images/bus.jpg").path)
        #expect(reading.samples.count == 1 && reading.samples[0].seconds == 0)
        #expect(reading.sampleLines.count == 1 && reading.sampleLines[0].hasPrefix("[0.00 s] brightness "))
        #expect(reading.heldPitches.count == 1 && reading.heldPitches[0].untilSeconds == 0.5)
        let tone = ContinuousTone.render(holding: reading.heldPitches.map { ($0.untilSeconds, $0.pitchHz) }, sampleRateHz: 22_050)
        #expect(tone.count == 11_025)
        #expect(throws: (any Error).self) { _ = try LightReading(input: "/nonexistent/room.jpg") }
    }
}
