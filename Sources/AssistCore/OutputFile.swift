import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a file the user asked for (a prescription picture, a transcript, a report) was not
/// written, as one sentence that says what was not saved. Never Foundation's
/// `Error Domain=NSCocoaErrorDomain Code=4`, which leaked before (issue 16).
public struct FileNotSavedError: UserFacingError, Equatable {
    public enum Reason: Sendable, Equatable {
        case folderMissing(String)
        case noSpace
        case notAllowed
        case alreadyExists
        case other(String)
    }

    public let path: String
    public let reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// The reason for an `errno` from open, write, fsync or rename.
    public init(path: String, errno code: Int32) {
        self.path = path
        switch code {
        case ENOENT, ENOTDIR: reason = .folderMissing((path as NSString).deletingLastPathComponent)
        case ENOSPC, EDQUOT, EFBIG: reason = .noSpace
        case EACCES, EPERM, EROFS: reason = .notAllowed
        case EEXIST: reason = .alreadyExists
        default: reason = .other(String(cString: strerror(code)))
        }
    }

    /// The reason alone, for a sentence of another error that names the file itself.
    public var reasonText: String {
        switch reason {
        case .folderMissing(let folder): return "the folder \(folder.isEmpty ? "." : folder) does not exist"
        case .noSpace: return "there is no room left on the disk"
        case .notAllowed: return "permission denied"
        case .alreadyExists: return "it already exists"
        case .other(let text): return text
        }
    }

    public var userMessage: String {
        switch reason {
        case .folderMissing(let folder):
            return "The folder \(folder.isEmpty ? "." : folder) does not exist, so \(path) was not saved."
        case .noSpace:
            return "There is no room left on the disk for \(path), so it was not saved."
        case .notAllowed:
            return "\(path) cannot be written here (permission denied), so it was not saved."
        case .alreadyExists:
            return "\(path) already exists; choose another name or move it away."
        case .other(let text):
            return "\(path) could not be written (\(text)), so it was not saved."
        }
    }
}

/// Writes a whole file readable by the user alone (mode 0600), all or nothing: the bytes go to a
/// temporary file in the same folder, are flushed to disk, and only then renamed over the
/// destination. On any failure the temporary file is removed and the destination is untouched,
/// so a full disk never leaves a 0-byte or half-written file behind.
///
/// For anything that carries personal data (a prescription's QR picture decodes to the patient's
/// name and audiogram; a transcript records what was around the user).
public enum PrivateFile {
    /// Mode 0600: owner read and write.
    public static let permissions: mode_t = 0o600

    public static func write(_ data: Data, to url: URL, replacing: Bool = true) throws(FileNotSavedError) {
        let path = url.path
        if !replacing && FileManager.default.fileExists(atPath: path) {
            throw FileNotSavedError(path: path, reason: .alreadyExists)
        }
        let folder = url.deletingLastPathComponent().path
        var template = Array((folder.isEmpty ? "." : folder).utf8CString.dropLast())
            + Array("/.\(url.lastPathComponent).partial-XXXXXX".utf8CString)
        // mkstemp creates the file with mode 0600 and a name no other process can take.
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw FileNotSavedError(path: path, errno: errno) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        func fail(_ code: Int32) -> FileNotSavedError {
            close(fd)
            unlink(temporary)
            return FileNotSavedError(path: path, errno: code)
        }
        var offset = 0
        while offset < data.count {
            let written = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw fail(errno)
            }
            offset += written
        }
        guard fsync(fd) == 0 else { throw fail(errno) }
        guard close(fd) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileNotSavedError(path: path, errno: code)
        }
        if !replacing {
            // link() fails with EEXIST rather than replacing a file that appeared meanwhile.
            guard link(temporary, path) == 0 else {
                let code = errno
                unlink(temporary)
                throw FileNotSavedError(path: path, errno: code)
            }
            unlink(temporary)
        } else {
            guard rename(temporary, path) == 0 else {
                let code = errno
                unlink(temporary)
                throw FileNotSavedError(path: path, errno: code)
            }
        }
    }

    /// Narrows an existing file to mode 0600 (a file made by a library that ignores our umask).
    public static func restrict(_ url: URL) {
        chmod(url.path, permissions)
    }
}

/// A report file (monitor JSON, SVG plot) that could not be written.
public struct OutputFileError: UserFacingError {
    public let path: String
    public init(path: String) { self.path = path }
    public var userMessage: String { "The file \(path) could not be written; check that its folder exists and is writable." }
}
