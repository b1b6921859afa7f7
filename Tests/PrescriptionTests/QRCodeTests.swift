import AssistCore
import Foundation
import TestSupport
import Media
import Testing
@testable import Prescription

@Suite("QR codes: made with libqrencode, read with zbar")
struct QRCodeTests {
    let key: AudiologistSigningKey
    let text: String
    let code: QRCode

    init() throws {
        // A fixed key, so the code (and whether a borderline picture reads) is the same every run.
        key = AudiologistSigningKey(audiologist: clinic, rawPrivateKey: Data((1...32).map { UInt8($0) }))
        text = try key.sign(try sampleDocument())
        code = try QRCode(encoding: text)
    }

    @Test("a prescription written as a PNG file imports back to exactly the same prescription")
    func pngRoundTrip() throws {
        let folder = try TemporaryFolder.make("rx-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("prescription.png")
        try code.pngData().write(to: file)
        let picture = try ImageFile(file).decode()
        #expect(picture == code.rgbImage()) // FFmpeg reads our PNG pixel for pixel
        let read = try QRCodeReader.text(in: picture)
        #expect(read == text)
        let verified = try PrescriptionVerifier(trustedKeys: [key.publicKey], now: issueDate).verify(text: read)
        #expect(verified.document == (try sampleDocument()))
    }

    @Test("a typical prescription fits a version 9 to 11 code at error-correction level M")
    func size() {
        // ~150 bytes → ~225 Base45 characters; printed in the report.
        print("QR: \(text.count) characters, version \(code.version), \(code.width)×\(code.width) modules")
        #expect((9...11).contains(code.version))
        #expect(code.width == 17 + 4 * code.version)
    }

    @Test("photographed conditions still import: turned up to 30°, blurred, noisy, glared, shrunk to 200 px")
    func photographedConditions() throws {
        let clean = code.rgbImage(pixelsPerModule: 8)
        let conditions: [(String, () -> RGBImage)] = [
            ("rotated 10°", { PhotoConditions.rotated(clean, degrees: 10) }),
            ("rotated 20°", { PhotoConditions.rotated(clean, degrees: 20) }),
            ("rotated 30°", { PhotoConditions.rotated(clean, degrees: 30) }),
            ("rotated −30°", { PhotoConditions.rotated(clean, degrees: -30) }),
            ("blurred σ≈2.4 px (0.3 module)", { PhotoConditions.blurred(clean, radius: 2) }),
            ("noise σ=40", { PhotoConditions.noisy(clean, sigma: 40) }),
            ("glare over a corner", { PhotoConditions.glared(clean, centreX: 0.7, centreY: 0.3, radius: 0.25, strength: 170) }),
            ("scaled to 200 px", { PhotoConditions.scaled(clean, longerSide: 200) }),
            ("rotated 30°, blurred, noisy, scaled to 200 px", {
                PhotoConditions.scaled(PhotoConditions.noisy(PhotoConditions.blurred(PhotoConditions.rotated(clean, degrees: 30), radius: 2), sigma: 20), longerSide: 200)
            }),
            ("glared, rotated 15°, scaled to 200 px", {
                PhotoConditions.scaled(PhotoConditions.rotated(PhotoConditions.glared(clean, centreX: 0.3, centreY: 0.6, radius: 0.2, strength: 150), degrees: 15), longerSide: 200)
            }),
        ]
        var failed: [String] = []
        for (name, make) in conditions {
            let found = QRCodeReader.texts(in: make())
            if !found.contains(text) { failed.append(name) }
        }
        print("QR photographed conditions: \(conditions.count - failed.count)/\(conditions.count) decoded; failed: \(failed)")
        #expect(failed.isEmpty)
    }

    @Test("blur of 0.3 module and the combined photo conditions read for other codes too, not just one lucky code")
    func otherCodes() throws {
        var heavyBlurRead = 0
        let seeds: [UInt8] = [11, 23, 37, 51]
        for seed in seeds {
            let key = AudiologistSigningKey(audiologist: clinic, rawPrivateKey: Data((0..<32).map { seed &+ UInt8($0) }))
            let text = try key.sign(try sampleDocument())
            let clean = try QRCode(encoding: text).rgbImage(pixelsPerModule: 8)
            #expect(QRCodeReader.texts(in: PhotoConditions.blurred(clean, radius: 2)).contains(text), "seed \(seed), blur")
            let photo = PhotoConditions.scaled(PhotoConditions.noisy(PhotoConditions.rotated(clean, degrees: 25), sigma: 20), longerSide: 200)
            #expect(QRCodeReader.texts(in: photo).contains(text), "seed \(seed), turned, noisy, 200 px")
            // Measured, not required: blur of 0.43 module is at the limit of what the code's
            // error correction can undo.
            if QRCodeReader.texts(in: PhotoConditions.blurred(clean, radius: 3)).contains(text) { heavyBlurRead += 1 }
        }
        print("QR heavy blur (σ≈3.5 px, 0.43 module): \(heavyBlurRead)/\(seeds.count) codes read")
    }

    @Test("a picture without a code says so")
    func noCode() {
        let blank = RGBImage(width: 300, height: 300, filledWith: (240, 240, 240))
        #expect(throws: PrescriptionError.noQRCodeFound) { try QRCodeReader.text(in: blank) }
    }

    @Test("a code in a 48-megapixel photo is found in a picture reduced to at most 2000 pixels a side, never enlarged")
    func largePictureReducedFirst() throws {
        // The code, 24 pixels a module, pasted into a light 8000×6000 photo.
        let small = code.rgbImage(pixelsPerModule: 24)
        var photo = RGBImage(width: 8000, height: 6000, filledWith: (235, 235, 230))
        for y in 0..<small.height {
            let target = ((2500 + y) * photo.width + 3100) * 3
            photo.pixels.replaceSubrange(target..<target + small.width * 3, with: small.pixels[(y * small.width * 3)..<((y + 1) * small.width * 3)])
        }
        let search = QRCodeReader.search(photo)
        #expect(search.texts == [text])
        #expect(max(search.searchedWidth, search.searchedHeight) <= QRCodeReader.maximumSearchSide)
        #expect(!search.renderingsTried.contains(.enlarged) && !search.renderingsTried.contains(.enlargedBinarised))
    }

    @Test("a search whose time is spent starts no further rendering, and says no code was found")
    func searchStopsWhenTimeIsSpent() {
        let blank = RGBImage(width: 300, height: 300, filledWith: (240, 240, 240))
        // A clock on which each look at the time finds three more seconds gone: the picture as it
        // is is always searched, then one more rendering fits in 4 s.
        var seconds = 0
        let search = QRCodeReader.search(blank, budget: .seconds(4), elapsed: { defer { seconds += 3 }; return .seconds(seconds) })
        #expect(search.renderingsTried == [.asIs, .enlarged, .binarised])
        // With the time spent before the search began (a slow reduction), the picture as it is is still searched.
        #expect(QRCodeReader.search(blank, budget: .seconds(4), elapsed: { .seconds(100) }).renderingsTried == [.asIs])
        #expect(search.texts.isEmpty)
        // Without a time limit every rendering is tried.
        #expect(QRCodeReader.search(blank, budget: .seconds(1_000_000), elapsed: { .zero }).renderingsTried == QRCodeReader.Rendering.allCases)
    }

    @Test("the SVG and the terminal text draw exactly the code's modules")
    func svgAndTerminal() {
        let dark = code.modules.filter { $0 }.count
        #expect(code.svg().components(separatedBy: "h1v1h-1z").count - 1 == dark)
        // Read the half blocks back into modules (light modules are the drawn ones).
        let lines = code.terminalText().split(separator: "\n").map(Array.init)
        let side = code.width + 2 * QRCode.quietZoneModules
        #expect(lines.count == (side + 1) / 2)
        var mismatches = 0
        for y in 0..<code.width {
            for x in 0..<code.width {
                let row = y + QRCode.quietZoneModules, column = x + QRCode.quietZoneModules
                let character = lines[row / 2][column]
                let light = row % 2 == 0 ? (character == "█" || character == "▀") : (character == "█" || character == "▄")
                if light == code.isDark(x: x, y: y) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    @Test("the PNG writer's checksums match the published check values")
    func checksums() {
        #expect(PNGWriter.crc32(Data("123456789".utf8)) == 0xCBF4_3926)
        #expect(PNGWriter.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
    }
}
