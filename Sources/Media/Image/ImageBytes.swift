import AssistCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension ImageFile {
    /// A picture received as bytes (an upload to `assist serve`), decoded by the same path as a
    /// picture file: the bytes go into an anonymous in-memory file (memfd), which FFmpeg reads
    /// through /proc/self/fd, so nothing is written to disk and the file is gone when closed.
    /// Sentences name the picture `name` (the uploaded file's name), not the descriptor.
    public static func decode(bytes: Data, name: String, fittingWithin maximumSide: Int? = nil) throws(ImageInputError) -> RGBImage {
        guard !bytes.isEmpty else { throw .emptyFile(path: name) }
        guard let memfdCreate = Self.memfdCreate else { throw .unreadable(path: name) }
        let descriptor = memfdCreate("assist-upload", Self.closeOnExec)
        guard descriptor >= 0 else { throw .unreadable(path: name) }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { buffer -> Int in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count <= 0 { return offset }
                offset += count
            }
            return offset
        }
        guard written == bytes.count else { throw .unreadable(path: name) }
        do throws(ImageInputError) {
            return try ImageFile(URL(fileURLWithPath: "/proc/self/fd/\(descriptor)")).decode(fittingWithin: maximumSide)
        } catch {
            throw error.naming(name)
        }
    }
}

extension ImageFile {
    /// glibc's memfd_create (2.27 and later), looked up at run time: Swift's Glibc module is built
    /// without _GNU_SOURCE, which hides its declaration, and syscall() is variadic.
    private static let memfdCreate: (@convention(c) (UnsafePointer<CChar>, UInt32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "memfd_create") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafePointer<CChar>, UInt32) -> Int32).self)
    }()

    /// MFD_CLOEXEC from linux/memfd.h: the descriptor is not inherited by child processes.
    private static let closeOnExec: UInt32 = 1
}

extension ImageInputError {
    /// The same failure, told about `name` instead of the path that was read.
    func naming(_ name: String) -> ImageInputError {
        switch self {
        case .fileNotFound: return .fileNotFound(path: name)
        case .unreadable: return .unreadable(path: name)
        case .isFolder: return .isFolder(path: name)
        case .emptyFile: return .emptyFile(path: name)
        case .notAnImage: return .notAnImage(path: name)
        case .damaged: return .damaged(path: name)
        case .decodingFailed(_, let reason): return .decodingFailed(path: name, reason: reason)
        case .tooLarge(_, let size): return .tooLarge(path: name, size: size)
        case .tooSmall(_, let size): return .tooSmall(path: name, size: size)
        }
    }
}
