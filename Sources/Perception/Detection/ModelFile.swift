import AssistCore
import Crypto
import Foundation

/// Why a model file cannot be used, said in the user's words rather than OpenVINO's ("Incorrect
/// weights in bin file!.", "FrontEnd API failed with GeneralFailure:." leaked before, issue 16).
public enum ModelFileError: UserFacingError, Equatable {
    /// OpenVINO could not read or compile it: damaged, cut short, or not a model.
    case unusable(path: String)
    /// The models folder lists a SHA-256 for it, and the file does not match.
    case checksumMismatch(path: String, checksums: String)

    public var userMessage: String {
        switch self {
        case .unusable(let path):
            return "The model file \(path) cannot be used: it is damaged, cut short or not an OpenVINO or ONNX model; reinstall it."
        case .checksumMismatch(let path, let checksums):
            return "The model file \(path) does not match its checksum in \(checksums): it is damaged or was changed; reinstall it."
        }
    }
}

/// Checks a model's files against the `SHA256SUMS` of its models folder, where there is one (a
/// model with flipped weight bytes otherwise gives wrong answers without a word). A file is
/// hashed on first use and again whenever its size or modification time changes; what was
/// verified is remembered in the cache folder, so a normal start costs one `stat` per file.
public enum ModelChecksums {
    /// The name of the checksum list (the output of `sha256sum`), looked for in the model's folder
    /// and up to three folders above it (`shared/SHA256SUMS` lists `models/…/yolo11n.bin`).
    public static let listName = "SHA256SUMS"

    /// The files a model is made of: an IR's .xml and .bin, or the one file.
    static func files(of model: URL) -> [URL] {
        model.pathExtension.lowercased() == "xml" ? [model, model.deletingPathExtension().appendingPathExtension("bin")] : [model]
    }

    /// Verifies every file of `model` that a checksum list names; files no list names pass.
    public static func verify(_ model: URL, cacheFolder: URL? = UserDirectories.cache()) throws(ModelFileError) {
        let cacheFile = cacheFolder?.appendingPathComponent("verified-models.json")
        var verified = cacheFile.flatMap { try? JSONDecoder().decode([String: VerifiedFile].self, from: Data(contentsOf: $0)) } ?? [:]
        var changed = false
        for file in files(of: model) {
            let path = file.standardizedFileURL.resolvingSymlinksInPath().path
            guard let (expected, list) = expectedDigest(for: URL(fileURLWithPath: path)) else { continue }
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  let size = attributes[.size] as? Int, let modified = attributes[.modificationDate] as? Date else { continue }
            let stamp = VerifiedFile(size: size, modified: modified.timeIntervalSince1970, sha256: expected)
            if verified[path] == stamp { continue }
            guard let digest = sha256(ofFileAt: path) else { continue }
            guard digest == expected else { throw .checksumMismatch(path: path, checksums: list) }
            verified[path] = stamp
            changed = true
        }
        if changed, let cacheFolder, let cacheFile, let data = try? JSONEncoder().encode(verified) {
            // Remembering is an optimisation: a cache that cannot be written means hashing again next time.
            try? UserDirectories.ensureExists(cacheFolder)
            try? PrivateFile.write(data, to: cacheFile)
        }
    }

    struct VerifiedFile: Codable, Equatable {
        var size: Int
        var modified: Double
        var sha256: String
    }

    /// The digest a `SHA256SUMS` near `file` gives for it, and that list's path.
    static func expectedDigest(for file: URL) -> (digest: String, list: String)? {
        var folder = file.deletingLastPathComponent()
        for _ in 0..<4 {
            let list = folder.appendingPathComponent(listName)
            if let text = try? String(contentsOf: list, encoding: .utf8) {
                let relative = String(file.path.dropFirst(folder.path.count + 1))
                for line in text.split(whereSeparator: \.isNewline) {
                    // "<64 hex digits><space><space or *><path>"
                    let parts = line.split(separator: " ", maxSplits: 1)
                    guard parts.count == 2, parts[0].count == 64 else { continue }
                    var name = parts[1]
                    if name.first == "*" || name.first == " " { name = name.dropFirst() }
                    if name == relative || name == "./" + relative { return (parts[0].lowercased(), list.path) }
                }
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// SHA-256 over the model's files in order (an IR's .xml, then its .bin): what a precision
    /// check is keyed by, so a changed or replaced model is never taken for the one checked.
    public static func contentDigest(of model: URL) -> String? {
        sha256(ofFilesAt: files(of: model).map(\.path))
    }

    static func sha256(ofFileAt path: String) -> String? { sha256(ofFilesAt: [path]) }

    /// One SHA-256 over the files one after the other, in hex; nil when one cannot be opened.
    private static func sha256(ofFilesAt paths: [String]) -> String? {
        var hash = SHA256()
        for path in paths {
            guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
            defer { try? handle.close() }
            while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty { hash.update(data: chunk) }
        }
        return hash.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
