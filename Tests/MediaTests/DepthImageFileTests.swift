import AssistCore
import Foundation
import TestSupport
import Testing
@testable import Media

@Suite("Reading depth images")
struct DepthImageFileTests {
    static func depth(_ name: String) -> URL { SharedFiles.data("depth/\(name)") }

    // Medians, valid shares and ranges are the ones MODELS.md gives for these frames.
    @Test("the three millimeter PGMs have the documented medians, shares of valid pixels and ranges", arguments: [
        ("NYU", 3268.0, 0.928, 1.386, 6.691), ("TUM", 2415.0, 0.808, 1.464, 9.331), ("SUN", 2723.0, 0.818, 1.057, 9.870),
    ])
    func millimeterPGMs(dataset: String, medianMillimeters: Double, validShare: Double, nearest: Float, farthest: Float) throws {
        let map = try DepthImageFile(Self.depth("\(dataset)_depth_mm.pgm"), encoding: .millimeters16).decode()
        #expect(map.width == 640 && map.height == 480)
        #expect(abs(median(of: map) * 1000 - medianMillimeters) <= 1)
        #expect(abs(map.validFraction - validShare) < 0.001)
        let valid = map.metersOrNaN.filter { !$0.isNaN }
        #expect(abs((valid.min() ?? 0) - nearest) < 0.001)
        #expect(abs((valid.max() ?? 0) - farthest) < 0.001)
    }

    @Test("the TUM PNG (value / 5000) reads as the same depths as its millimeter PGM")
    func tumPNG() throws {
        let map = try DepthImageFile(Self.depth("TUM_depth.png"), encoding: .tum).decode()
        let reference = try DepthImageFile(Self.depth("TUM_depth_mm.pgm"), encoding: .millimeters16).decode()
        #expect(abs(median(of: map) * 1000 - 2415) <= 1)
        // The PGM holds whole millimeters, the PNG fifths of one.
        #expect(largestDifferenceInMillimeters(map, reference) <= 0.51)
    }

    @Test("the SUN PNG with rotated bits reads as the same depths as its millimeter PGM")
    func sunPNG() throws {
        let map = try DepthImageFile(Self.depth("SUN_depth.png"), encoding: .sunRotated).decode()
        let reference = try DepthImageFile(Self.depth("SUN_depth_mm.pgm"), encoding: .millimeters16).decode()
        #expect(abs(median(of: map) * 1000 - 2723) <= 1)
        #expect(largestDifferenceInMillimeters(map, reference) <= 0.01)
    }

    @Test("the NYU raw Kinect disparity reads little-endian: 1.386 to 6.691 m, 92.8 % valid, like its millimeter PGM")
    func nyuRawDisparity() throws {
        let map = try DepthImageFile(Self.depth("NYU_depth.pgm"), encoding: .nyuKinectDisparity).decode()
        #expect(map.width == 640 && map.height == 480)
        #expect(abs(map.validFraction - 0.9277) < 0.0005)
        let valid = map.metersOrNaN.filter { !$0.isNaN }
        #expect(abs((valid.min() ?? 0) - 1.386) < 0.001)
        #expect(abs((valid.max() ?? 0) - 6.691) < 0.001)
        #expect(abs(median(of: map) - 3.268) < 0.001)
        let reference = try DepthImageFile(Self.depth("NYU_depth_mm.pgm"), encoding: .millimeters16).decode()
        // The PGM holds the same depths rounded to whole millimeters.
        #expect(largestDifferenceInMillimeters(map, reference) <= 0.51)
    }

    @Test("read as big-endian millimeters, the NYU raw file gives depths no Kinect measures")
    func nyuRawIsNotBigEndian() throws {
        let map = try DepthImageFile(Self.depth("NYU_depth.pgm"), encoding: .millimeters16).decode()
        #expect(median(of: map) > 20)
    }

    @Test("a 16-bit PNG in millimeters reads like the PGM it was made from")
    func millimeterPNG() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("TUM_depth_mm.png")
        try Program.ffmpeg(["-i", Self.depth("TUM_depth_mm.pgm").path, "-pix_fmt", "gray16be", png.path])
        let fromPNG = try DepthImageFile(png, encoding: .millimeters16).decode()
        let fromPGM = try DepthImageFile(Self.depth("TUM_depth_mm.pgm"), encoding: .millimeters16).decode()
        #expect(fromPNG.width == 640 && fromPNG.height == 480)
        #expect(largestDifferenceInMillimeters(fromPNG, fromPGM) == 0)
    }

    @Test("a PGM with comments and a maxval below 65535 keeps its millimeters unscaled")
    func smallMaxValue() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tiny_depth_mm.pgm")
        let samples: [UInt16] = [0, 1000, 2500, 9999]
        try Data("P5\n# made by a test\n2 2\n# maxval next\n10000\n".utf8 + samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
            .write(to: file)
        let map = try DepthImageFile(file, encoding: .millimeters16).decode()
        #expect(map.width == 2 && map.height == 2)
        #expect(map.meters(x: 0, y: 0) == nil)
        #expect(map.meters(x: 1, y: 0) == 1.0)
        #expect(map.meters(x: 0, y: 1) == 2.5)
        #expect(map.meters(x: 1, y: 1) == 9.999)
    }

    @Test("each encoding turns samples into meters by its dataset's rule")
    func encodings() {
        func meters(_ sample: UInt16, _ encoding: DepthImageFile.Encoding) -> Float {
            DepthImageFile.meters(from: [sample], encoding: encoding)[0]
        }
        #expect(meters(1500, .millimeters16) == 1.5)
        #expect(meters(0, .millimeters16).isNaN)
        #expect(meters(10000, .tum) == 2.0)
        #expect(meters(0, .tum).isNaN)
        #expect(meters(UInt16(2723 << 3), .sunRotated) == 2.723)      // 2723 mm stored rotated by 3 bits
        #expect(meters(0, .sunRotated).isNaN)
        #expect(abs(meters(900, .nyuKinectDisparity) - 351.3 / 192.5) < 1e-6)
        #expect(meters(2047, .nyuKinectDisparity).isNaN)
        #expect(meters(1100, .nyuKinectDisparity).isNaN)                // beyond infinity
    }

    // MARK: - Finding the depth beside a colour image

    @Test("the depth file beside NYU_color.ppm and TUM_color.png is their _depth_mm.pgm")
    func companionOfDatasetFrames() {
        #expect(DepthImageFile.companion(forColorImage: Self.depth("NYU_color.ppm"))
                == DepthImageFile(Self.depth("NYU_depth_mm.pgm"), encoding: .millimeters16))
        #expect(DepthImageFile.companion(forColorImage: Self.depth("TUM_color.png"))?.url.lastPathComponent == "TUM_depth_mm.pgm")
    }

    @Test("a colour image with no depth beside it has no companion")
    func noCompanion() {
        #expect(DepthImageFile.companion(forColorImage: SharedFiles.bus) == nil)
    }

    @Test("X.jpg finds X_depth_mm.png when there is no PGM, and prefers the PGM when both exist")
    func companionPrefersPGM() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("kitchen.jpg")
        try Data([1]).write(to: photo)
        try Data([1]).write(to: folder.appendingPathComponent("kitchen_depth_mm.png"))
        #expect(DepthImageFile.companion(forColorImage: photo)?.url.lastPathComponent == "kitchen_depth_mm.png")
        try Data([1]).write(to: folder.appendingPathComponent("kitchen_depth_mm.pgm"))
        #expect(DepthImageFile.companion(forColorImage: photo)?.url.lastPathComponent == "kitchen_depth_mm.pgm")
    }

    // MARK: - Errors

    @Test("a depth image the size of its colour image passes the size check")
    func sameSize() throws {
        let file = DepthImageFile(Self.depth("TUM_depth.png"), encoding: .tum)
        let depth = try file.decode()
        let color = try ImageFile(Self.depth("TUM_color.png")).decode()
        try file.requireSameSize(depth, as: color)
    }

    @Test("a depth image of another size than its colour image is refused with both sizes")
    func sizeMismatch() throws {
        let file = DepthImageFile(Self.depth("TUM_depth.png"), encoding: .tum)
        let depth = try file.decode()
        let color = try ImageFile(SharedFiles.bus).decode()
        let expected = DepthImageError.sizeMismatch(depthFile: file.url.path, depth: (640, 480), color: (810, 1080))
        #expect(throws: expected) { try file.requireSameSize(depth, as: color) }
        #expect(expected.userMessage == "The depth image TUM_depth.png is 640 by 480 pixels but its colour image is 810 by 1080, so the two cannot be matched.")
    }

    @Test("a missing depth file is reported with its whole path")
    func missing() {
        let path = "/nonexistent/scene_depth_mm.pgm"
        #expect(throws: DepthImageError.fileNotFound(path: path)) {
            try DepthImageFile(URL(fileURLWithPath: path), encoding: .millimeters16).decode()
        }
    }

    @Test("an 8-bit colour picture is not a depth image", arguments: ["TUM_color.png", "SUN_color.jpg", "NYU_color.ppm"])
    func colourPicture(name: String) throws {
        let path = Self.depth(name).path
        #expect(throws: DepthImageError.notADepthImage(path: path, found: "an 8-bit colour picture")) {
            try DepthImageFile(Self.depth(name), encoding: .tum).decode()
        }
        #expect(DepthImageError.notADepthImage(path: path, found: "an 8-bit colour picture").userMessage
                == "The file \(name) is not a 16-bit depth image; it holds an 8-bit colour picture.")
    }

    @Test("an 8-bit grey PGM or PNG is not a depth image", arguments: ["pgm", "png"])
    func eightBitGrey(format: String) throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("grey.\(format)")
        try Program.ffmpeg(["-i", SharedFiles.zidane.path, "-pix_fmt", "gray", file.path])
        #expect(throws: DepthImageError.notADepthImage(path: file.path, found: "an 8-bit grey picture")) {
            try DepthImageFile(file, encoding: .millimeters16).decode()
        }
    }

    @Test("a 16-bit grey PNG with an alpha channel is named as such, not taken for depth")
    func greyWithAlpha() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("grey_alpha.png")
        try Program.ffmpeg(["-i", Self.depth("TUM_depth.png").path, "-pix_fmt", "ya16be", file.path])
        #expect(throws: DepthImageError.notADepthImage(path: file.path, found: "a 16-bit grey picture with transparency")) {
            try DepthImageFile(file, encoding: .tum).decode()
        }
    }

    @Test("a text file, an empty file and a folder are not depth images")
    func notImages() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("notes_depth_mm.png")
        try Data("not a picture\n".utf8).write(to: text)
        let empty = folder.appendingPathComponent("empty_depth_mm.pgm")
        try Data().write(to: empty)
        #expect(throws: DepthImageError.notADepthImage(path: text.path, found: "no picture FFmpeg can read")) {
            try DepthImageFile(text, encoding: .millimeters16).decode()
        }
        #expect(throws: DepthImageError.notADepthImage(path: empty.path, found: "nothing (it is empty)")) {
            try DepthImageFile(empty, encoding: .millimeters16).decode()
        }
        #expect(throws: DepthImageError.notADepthImage(path: folder.path, found: "a folder")) {
            try DepthImageFile(folder, encoding: .millimeters16).decode()
        }
    }

    @Test("a PGM or PNG depth image cut to half its bytes is damaged",
          arguments: [("TUM_depth_mm.pgm", DepthImageFile.Encoding.millimeters16), ("TUM_depth.png", .tum)])
    func truncated(name: String, encoding: DepthImageFile.Encoding) throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Data(contentsOf: Self.depth(name))
        let file = folder.appendingPathComponent(name)
        try bytes.prefix(bytes.count / 2).write(to: file)
        #expect(throws: DepthImageError.damaged(path: file.path)) { try DepthImageFile(file, encoding: encoding).decode() }
    }

    @Test("depth files cut anywhere give a depth map or a DepthImageError, never a crash")
    func cutFilesNeverCrash() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, encoding) in [("SUN_depth.png", DepthImageFile.Encoding.sunRotated), ("NYU_depth.pgm", .nyuKinectDisparity)] {
            let bytes = try Data(contentsOf: Self.depth(name))
            for cut in stride(from: 1, to: 300, by: 7) + [bytes.count - 1] {
                let file = folder.appendingPathComponent("cut-\(cut)-\(name)")
                try bytes.prefix(cut).write(to: file)
                do {
                    let map = try DepthImageFile(file, encoding: encoding).decode()
                    #expect(map.metersOrNaN.count == map.width * map.height)
                } catch {
                    #expect(error.userMessage.contains(file.lastPathComponent))
                }
            }
        }
    }

    private func median(of map: DepthMap) -> Double {
        let valid = map.metersOrNaN.filter { !$0.isNaN }.sorted()
        guard !valid.isEmpty else { return .nan }
        return Double(valid[valid.count / 2] + valid[(valid.count - 1) / 2]) / 2
    }

    /// The largest difference in millimeters where both maps have a reading, or infinity when
    /// they disagree on where readings are.
    private func largestDifferenceInMillimeters(_ a: DepthMap, _ b: DepthMap) -> Double {
        guard a.width == b.width, a.height == b.height else { return .infinity }
        var largest = 0.0
        for (x, y) in zip(a.metersOrNaN, b.metersOrNaN) {
            if x.isNaN != y.isNaN { return .infinity }
            if !x.isNaN { largest = max(largest, Double(abs(x - y)) * 1000) }
        }
        return largest
    }
}
