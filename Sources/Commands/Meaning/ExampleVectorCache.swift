import AssistCore
import Crypto
import Foundation
import Inference

/// The language file's example vectors, kept between runs: embedding several hundred examples
/// takes seconds on a small CPU, and it would otherwise delay "Assistive Vision activated." at
/// every start. A file is used only for exactly the examples, model files and OpenVINO build it
/// was made from (its name is a SHA-256 of all of them), and only when it holds one unit vector
/// per example; anything else is worked out again and written anew.
public struct ExampleVectorCache: Sendable {
    public let folder: URL

    public init(folder: URL = UserDirectories.cache().appendingPathComponent("meaning")) {
        self.folder = folder
    }

    /// The file for these examples embedded by the model at `model` (its .xml; the .bin beside it).
    func file(texts: [String], model: URL, dimensions: Int) -> URL {
        var hash = SHA256()
        hash.update(data: Data("example-vectors 1\n\(InferenceCore.version())\n\(dimensions)\n".utf8))
        for part in [model, model.deletingPathExtension().appendingPathExtension("bin")] {
            let attributes = try? FileManager.default.attributesOfItem(atPath: part.path)
            let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
            hash.update(data: Data("\(part.standardizedFileURL.path)\n\(size)\n\(modified)\n".utf8))
        }
        for text in texts { hash.update(data: Data((text + "\n").utf8)) }
        let name = hash.finalize().map { String(format: "%02x", $0) }.joined()
        return folder.appendingPathComponent(name + ".f32")
    }

    /// The stored vectors, row-major, or nil when there are none usable.
    func vectors(texts: [String], model: URL, dimensions: Int) -> [Float]? {
        guard let data = try? Data(contentsOf: file(texts: texts, model: model, dimensions: dimensions)),
              data.count == texts.count * dimensions * MemoryLayout<Float>.size else { return nil }
        let vectors = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        for row in 0..<texts.count {
            var norm: Float = 0
            for value in vectors[(row * dimensions)..<((row + 1) * dimensions)] { norm += value * value }
            guard norm.isFinite, abs(norm - 1) < 1e-3 else { return nil }
        }
        return vectors
    }

    /// Keeps the vectors for the next start; a cache that cannot be written only costs time then.
    func store(_ vectors: [Float], texts: [String], model: URL, dimensions: Int) {
        let target = file(texts: texts, model: model, dimensions: dimensions)
        try? UserDirectories.ensureExists(folder)
        let data = vectors.withUnsafeBufferPointer { Data(buffer: $0) }
        try? data.write(to: target, options: .atomic)
    }
}
