import Foundation
import TestSupport
import Testing
@testable import Perception

/// Issue 16: a model with flipped weight bytes silently gave wrong answers; OpenVINO's own words
/// ("Incorrect weights in bin file!.") reached the user for a cut model.
@Suite("Model files: checksums and damage")
struct ModelChecksumTests {
    /// The IR model copied into `folder/models/yolo/`, with a SHA256SUMS one folder up naming it
    /// as `shared/SHA256SUMS` does (paths relative to the list's folder).
    static func copiedModel(in folder: URL, withChecksums: Bool = true) throws -> URL {
        let modelFolder = folder.appendingPathComponent("models/yolo")
        try FileManager.default.createDirectory(at: modelFolder, withIntermediateDirectories: true)
        for name in ["yolo11n.xml", "yolo11n.bin", "metadata.yaml"] {
            try FileManager.default.copyItem(at: SharedFiles.irModel.deletingLastPathComponent().appendingPathComponent(name),
                                             to: modelFolder.appendingPathComponent(name))
        }
        if withChecksums {
            let lines = try ["yolo11n.xml", "yolo11n.bin"].map { name in
                "\(try #require(ModelChecksums.sha256(ofFileAt: modelFolder.appendingPathComponent(name).path)))  models/yolo/\(name)"
            }
            try (lines.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("SHA256SUMS"), atomically: true, encoding: .utf8)
        }
        return modelFolder.appendingPathComponent("yolo11n.xml")
    }

    static func flipByte(in file: URL, at fraction: Double) throws {
        var bytes = try Data(contentsOf: file)
        let index = Int(Double(bytes.count) * fraction)
        bytes[index] ^= 0x5A
        try bytes.write(to: file)
    }

    @Test("an intact model passes; one flipped weight byte is refused by name, on first use and after a change")
    func flippedWeights() throws {
        let folder = try TemporaryFolder.make("perception-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache")
        let model = try Self.copiedModel(in: folder)
        try ModelChecksums.verify(model, cacheFolder: cache)
        // Verified once and remembered: the cache names both files.
        let remembered = try JSONDecoder().decode([String: ModelChecksums.VerifiedFile].self,
                                                  from: Data(contentsOf: cache.appendingPathComponent("verified-models.json")))
        #expect(remembered.count == 2)
        // Changed after it was verified: the size is the same, the time is not.
        let weights = model.deletingPathExtension().appendingPathExtension("bin")
        try Self.flipByte(in: weights, at: 0.5)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: weights.path)
        #expect(throws: ModelFileError.checksumMismatch(path: weights.resolvingSymlinksInPath().path,
                                                        checksums: folder.appendingPathComponent("SHA256SUMS").path)) {
            try ModelChecksums.verify(model, cacheFolder: cache)
        }
        let message = ModelFileError.checksumMismatch(path: weights.path, checksums: "SHA256SUMS").userMessage
        #expect(message.contains("yolo11n.bin") && message.contains("damaged"))
    }

    @Test("a model no checksum list names is not checked")
    func noList() throws {
        let folder = try TemporaryFolder.make("perception-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try Self.copiedModel(in: folder, withChecksums: false)
        try Self.flipByte(in: model.deletingPathExtension().appendingPathExtension("bin"), at: 0.5)
        try ModelChecksums.verify(model, cacheFolder: nil)
    }

    @Test("a cut weights file is one sentence about the file, not OpenVINO's words")
    func cutWeights() throws {
        let folder = try TemporaryFolder.make("perception-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try Self.copiedModel(in: folder, withChecksums: false)
        let weights = model.deletingPathExtension().appendingPathExtension("bin")
        try Data(contentsOf: weights).prefix(100_000).write(to: weights)
        #expect(throws: ModelFileError.unusable(path: model.path)) { try ObjectDetector(modelURL: model) }
    }
}
