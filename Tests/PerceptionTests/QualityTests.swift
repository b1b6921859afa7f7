import AssistCore
import Foundation
import TestSupport
import Testing
@testable import Perception

@Suite("Image quality")
struct QualityTests {
    /// Random grey noise: every pixel its own value, as sharp as a picture gets.
    func noise(width: Int = 320, height: Int = 240, seed: UInt64 = 1) -> RGBImage {
        var generator = SplitMix64(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) {
            let value = UInt8.random(in: 40...220, using: &generator)
            pixels[3 * i] = value; pixels[3 * i + 1] = value; pixels[3 * i + 2] = value
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// A 16-px checkerboard.
    func checkerboard(width: Int = 640, height: Int = 480) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width where (x / 16 + y / 16) % 2 == 0 {
                let i = 3 * (y * width + x)
                pixels[i] = 230; pixels[i + 1] = 230; pixels[i + 2] = 230
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// A separable box blur of radius `radius` (edges clamped).
    func boxBlurred(_ image: RGBImage, radius: Int) -> RGBImage {
        func pass(_ source: [UInt8], horizontal: Bool) -> [UInt8] {
            var out = source
            for y in 0..<image.height {
                for x in 0..<image.width {
                    for channel in 0..<3 {
                        var sum = 0
                        for k in -radius...radius {
                            let xx = horizontal ? min(max(x + k, 0), image.width - 1) : x
                            let yy = horizontal ? y : min(max(y + k, 0), image.height - 1)
                            sum += Int(source[3 * (yy * image.width + xx) + channel])
                        }
                        out[3 * (y * image.width + x) + channel] = UInt8(sum / (2 * radius + 1))
                    }
                }
            }
            return out
        }
        return RGBImage(width: image.width, height: image.height,
                        pixels: pass(pass(image.pixels, horizontal: true), horizontal: false))
    }

    func scaled(_ image: RGBImage, brightness: Double) -> RGBImage {
        RGBImage(width: image.width, height: image.height, pixels: image.pixels.map { UInt8((Double($0) * brightness).rounded()) })
    }

    @Test("a sharp texture is fine, its heavy box blur is too blurred, and at 3 % brightness it is too dark")
    func syntheticTextures() {
        let check = ImageQualityCheck.standard
        for sharp in [noise(), checkerboard()] {
            #expect(check.verdict(for: sharp) == .ok)
            #expect(check.verdict(for: scaled(sharp, brightness: 0.03)) == .tooDark)
        }
        #expect(check.verdict(for: boxBlurred(noise(), radius: 4)) == .tooBlurred)
        #expect(check.verdict(for: boxBlurred(checkerboard(), radius: 12)) == .tooBlurred)
    }

    @Test("a blank wall has nothing to judge and is reported as blurred; a black frame as dark")
    func blankPictures() {
        #expect(ImageQualityCheck.standard.verdict(for: RGBImage(width: 64, height: 48, filledWith: (128, 128, 128))) == .tooBlurred)
        #expect(ImageQualityCheck.standard.verdict(for: RGBImage(width: 64, height: 48, filledWith: (0, 0, 0))) == .tooDark)
        #expect(ImageQualityCheck.standard.verdict(for: RGBImage(width: 0, height: 0, pixels: [])) == .tooDark)
    }

    @Test("a dark picture with a few bright lights (night street) is not called dark")
    func darkWithLights() {
        var image = scaled(noise(), brightness: 0.1)
        // 5 % of the pixels lit: rows 0..<12 of 240.
        for i in 0..<(320 * 12 * 3) { image.pixels[i] = 240 }
        let report = ImageQualityCheck.standard.report(for: image)
        #expect(report.meanLuma < 0.1)
        #expect(report.verdict != .tooDark)
    }

    @Test("the real NYU colour frame is fine; darkened it is too dark; box-blurred (2 % kernel) too blurred")
    func realPhoto() throws {
        let photo = try loadPPM(SharedFiles.data("depth/NYU_color.ppm"))
        #expect(photo.width == 640 && photo.height == 480)
        let check = ImageQualityCheck.standard
        let report = check.report(for: photo)
        #expect(report.verdict == .ok)
        // Measured with the same method in numpy when the threshold was chosen: 0.029.
        #expect(abs(report.laplacianVariance - 0.029) < 0.002)
        #expect(check.verdict(for: scaled(photo, brightness: 0.03)) == .tooDark)
        #expect(check.verdict(for: boxBlurred(photo, radius: 6)) == .tooBlurred)
    }

    @Test("shrinking makes the blur measure about independent of resolution")
    func sizeNormalised() {
        let small = checkerboard(width: 640, height: 480)
        // The same pattern at twice the resolution (32-px squares on 1280 × 960).
        var pixels = [UInt8](repeating: 0, count: 1280 * 960 * 3)
        for y in 0..<960 {
            for x in 0..<1280 where (x / 32 + y / 32) % 2 == 0 {
                let i = 3 * (y * 1280 + x)
                pixels[i] = 230; pixels[i + 1] = 230; pixels[i + 2] = 230
            }
        }
        let large = RGBImage(width: 1280, height: 960, pixels: pixels)
        let a = ImageQualityCheck.standard.report(for: small).laplacianVariance
        let b = ImageQualityCheck.standard.report(for: large).laplacianVariance
        #expect(abs(a - b) / a < 0.05)
    }

    @Test("thresholds outside 0…1 are rejected")
    func badThresholds() {
        #expect(throws: ImageQualityCheckError.self) { try ImageQualityCheck(darkMeanLuma: 1.5) }
        #expect(throws: ImageQualityCheckError.self) { try ImageQualityCheck(blurredLaplacianVariance: -1) }
    }
}
