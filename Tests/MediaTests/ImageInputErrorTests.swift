import AssistCore
import Foundation
import TestSupport
import Testing
@testable import Media

@Suite("Bad image input gives one clear sentence, never a crash")
struct ImageInputErrorTests {
    @Test("a missing file is reported with its whole path")
    func missingFile() throws {
        let path = "/nonexistent-folder/holiday.jpg"
        #expect(throws: ImageInputError.fileNotFound(path: path)) { try ImageFile(URL(fileURLWithPath: path)).decode() }
        #expect(ImageInputError.fileNotFound(path: path).userMessage == "No file was found at \(path).")
    }

    @Test("a text file is not an image, whatever its name says", arguments: ["notes.jpg", "notes.png", "notes.webp", "notes"])
    func textFile(name: String) throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try Data("Shopping list: milk, bread, apples.\n".utf8).write(to: file)
        #expect(throws: ImageInputError.notAnImage(path: file.path)) { try ImageFile(file).decode() }
    }

    @Test("a JPEG cut to half its bytes is reported as damaged rather than decoded half grey")
    func truncatedJPEG() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = try Data(contentsOf: SharedFiles.bus)
        let file = folder.appendingPathComponent("bus.jpg")
        try whole.prefix(whole.count / 2).write(to: file)
        #expect(throws: ImageInputError.damaged(path: file.path)) { try ImageFile(file).decode() }
        #expect(ImageInputError.damaged(path: file.path).userMessage
                == "The image in bus.jpg is damaged or cut short, so it could not be read.")
    }

    @Test("PNG, WebP and BMP files cut to half their bytes are reported as damaged", arguments: ["png", "webp", "bmp"])
    func truncatedOtherFormats(format: String) throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = folder.appendingPathComponent("whole.\(format)")
        try Program.ffmpeg(["-i", SharedFiles.zidane.path, whole.path])
        let bytes = try Data(contentsOf: whole)
        let file = folder.appendingPathComponent("cut.\(format)")
        try bytes.prefix(bytes.count / 2).write(to: file)
        #expect(throws: ImageInputError.damaged(path: file.path)) { try ImageFile(file).decode() }
    }

    @Test("an empty file is reported as empty")
    func emptyFile() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("empty.jpg")
        try Data().write(to: file)
        #expect(throws: ImageInputError.emptyFile(path: file.path)) { try ImageFile(file).decode() }
        #expect(ImageInputError.emptyFile(path: file.path).userMessage
                == "The file empty.jpg is empty (0 bytes), so it holds no picture.")
    }

    @Test("a folder is reported as a folder")
    func folder() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let named = folder.appendingPathComponent("photos.jpg")
        try FileManager.default.createDirectory(at: named, withIntermediateDirectories: false)
        #expect(throws: ImageInputError.isFolder(path: named.path)) { try ImageFile(named).decode() }
        #expect(ImageInputError.isFolder(path: named.path).userMessage == "photos.jpg is a folder, not an image file.")
    }

    @Test("a sound file is not an image")
    func soundFile() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("beep.wav")
        try Program.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=0.2", file.path])
        #expect(throws: ImageInputError.notAnImage(path: file.path)) { try ImageFile(file).decode() }
    }

    @Test("a device such as /dev/zero is refused without being read")
    func device() {
        #expect(throws: ImageInputError.notAnImage(path: "/dev/zero")) { try ImageFile(URL(fileURLWithPath: "/dev/zero")).decode() }
    }

    @Test("a PPM whose header gives a width of zero is refused")
    func zeroWidthPicture() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("nothing.ppm")
        try Data("P6\n0 10\n255\n".utf8).write(to: file)
        #expect(throws: ImageInputError.self) { try ImageFile(file).decode() }
    }

    @Test("a valid picture of 1×1 or 7×200 pixels is too small, said with its size and name, not as a focal length")
    func tinyPicture() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (width, height, format) in [(1, 1, "png"), (7, 200, "jpg"), (1, 1, "gif")] {
            let file = folder.appendingPathComponent("tiny-\(width)x\(height).\(format)")
            // rgb24: the colour source's default 4:2:0 has no chroma plane for a 1-pixel picture.
            try Program.ffmpeg(["-f", "lavfi", "-i", "color=c=white:s=\(width)x\(height),format=rgb24", "-frames:v", "1", file.path])
            #expect(throws: ImageInputError.tooSmall(path: file.path, size: PictureSize(width: width, height: height))) { try ImageFile(file).decode() }
            #expect(throws: ImageInputError.tooSmall(path: "upload.\(format)", size: PictureSize(width: width, height: height))) {
                try ImageFile.decode(bytes: try Data(contentsOf: file), name: "upload.\(format)")
            }
        }
        #expect(ImageInputError.tooSmall(path: "/x/dot.png", size: PictureSize(width: 1, height: 1)).userMessage
                == "The picture dot.png is only 1 by 1 pixels, too small to show anything; pictures of at least 8 by 8 pixels are read.")
        // 8×8 is read.
        let smallest = folder.appendingPathComponent("eight.png")
        try Program.ffmpeg(["-f", "lavfi", "-i", "color=c=white:s=8x8", "-frames:v", "1", smallest.path])
        #expect(try ImageFile(smallest).decode().width == 8)
    }

    @Test("a PNG whose header claims 100000 by 100000 pixels is refused as damaged, not allocated")
    func absurdSize() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            // CRCs are left zero: FFmpeg checks them only when asked to (AV_EF_CRCCHECK).
            let length = UInt32(data.count)
            return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + Array(type.utf8) + data + [0, 0, 0, 0]
        }
        let side: [UInt8] = [0x00, 0x01, 0x86, 0xA0]   // 100000, big-endian
        let header = side + side + [8, 2, 0, 0, 0]     // 8-bit RGB, no interlace
        let png = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IEND", [])
        let file = folder.appendingPathComponent("huge.png")
        try Data(png).write(to: file)
        // Issue 16: a picture this large is too large, said as such, before anything is decoded.
        #expect(throws: ImageInputError.tooLarge(path: file.path, size: PictureSize(width: 100_000, height: 100_000))) {
            try ImageFile(file).decode()
        }
    }

    @Test("a PNG header declaring about 4 billion by 4 billion pixels is too large, not an overflow (found by the fuzzer)")
    func absurdDeclaredSize() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("huge.png")
        // The header of the fuzzer's input (Fuzz/Regressions/image/png-4-billion-square).
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
                          0xFF, 0xD7, 0xFF, 0xFF, 0xFB, 0x18, 0x90, 0x00])
        try bytes.write(to: file)
        #expect(PictureSize.declared(in: bytes)?.pixels == Int.max)
        #expect(throws: ImageInputError.self) { try ImageFile(file).decode() }
    }

    @Test("a 16000×16000 PNG is refused as too large at once, and the picture size is read from PNG and JPEG headers")
    func pictureTooLarge() throws {
        let folder = try TemporaryFolder.make("too-large")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The header of a 16000×16000 grey PNG (its pixel data does not matter: it is never read).
        let side: [UInt8] = [0x00, 0x00, 0x3E, 0x80]   // 16000, big-endian
        let ihdr: [UInt8] = [0, 0, 0, 13] + Array("IHDR".utf8) + side + side + [8, 0, 0, 0, 0] + [0, 0, 0, 0]
        let file = folder.appendingPathComponent("big.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + ihdr).write(to: file)
        do {
            _ = try ImageFile(file).decode()
            Issue.record("a 16000×16000 picture was decoded")
        } catch {
            #expect(error.userMessage == "The picture is too large: big.png is 16000 by 16000 pixels, and pictures of up to 50 megapixels are read.")
        }
        #expect(PictureSize.declared(atPath: SharedFiles.bus.path) == PictureSize(width: 810, height: 1080))
        let png = folder.appendingPathComponent("bus.png")
        try Program.ffmpeg(["-i", SharedFiles.bus.path, png.path])
        #expect(PictureSize.declared(atPath: png.path) == PictureSize(width: 810, height: 1080))
    }

    @Test("permission denied when opening maps to the unreadable sentence")
    func permissionDenied() {
        // Tests run as root here, which may read any file, so the mapping itself is checked.
        let error = ImageInputError(FFmpegPictureFailure.cannotOpen(errno: EACCES), path: "/photos/secret.jpg")
        #expect(error == .unreadable(path: "/photos/secret.jpg"))
        #expect(error.userMessage == "The file secret.jpg could not be read; check that you have permission to open it.")
        #expect(ImageInputError(FFmpegPictureFailure.cannotOpen(errno: ENOENT), path: "/a.jpg") == .fileNotFound(path: "/a.jpg"))
    }

    @Test("every error is one sentence that names the file", arguments: [
        ImageInputError.fileNotFound(path: "/p/bus.jpg"), .unreadable(path: "/p/bus.jpg"), .isFolder(path: "/p/bus.jpg"),
        .emptyFile(path: "/p/bus.jpg"), .notAnImage(path: "/p/bus.jpg"), .damaged(path: "/p/bus.jpg"),
        .decodingFailed(path: "/p/bus.jpg", reason: "Cannot allocate memory"),
    ])
    func oneSentence(error: ImageInputError) {
        #expect(error.userMessage.contains("bus.jpg"))
        #expect(error.userMessage.hasSuffix("."))
        #expect(error.userMessage.dropLast().contains(". ") == false)
        #expect(userMessage(for: error) == error.userMessage)
    }

    // Cutting a file at every point and scribbling over its header exercises the paths where
    // FFmpeg fails part-way; each must end in a typed error or a picture, never a crash.
    @Test("JPEG and PNG files cut anywhere or with scribbled headers give a picture or an ImageInputError")
    func damagedFilesNeverCrash() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("zidane.png")
        try Program.ffmpeg(["-i", SharedFiles.zidane.path, png.path])
        var generator = SplitMix64(seed: 20261122)
        for original in [SharedFiles.zidane, png] {
            let bytes = [UInt8](try Data(contentsOf: original))
            var variants: [[UInt8]] = stride(from: 1, to: 4000, by: 97).map { Array(bytes.prefix($0)) }
            variants += (1...8).map { Array(bytes.prefix(bytes.count * $0 / 9)) }
            for _ in 0..<24 {
                var scribbled = bytes
                for _ in 0..<8 { scribbled[Int(generator.next() % 600)] = UInt8(truncatingIfNeeded: generator.next()) }
                variants.append(scribbled)
            }
            for (index, variant) in variants.enumerated() {
                let file = folder.appendingPathComponent("variant-\(index).\(original.pathExtension)")
                try Data(variant).write(to: file)
                do {
                    let image = try ImageFile(file).decode()
                    #expect(image.pixels.count == image.width * image.height * 3)
                } catch {
                    #expect(!error.userMessage.isEmpty)
                }
            }
        }
    }
}

