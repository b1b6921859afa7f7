#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What is wrong with a path before any decoder sees it. Checked first so that the common
/// mistakes (a typo, a folder, an empty file) get their own sentence instead of a decoder's
/// guess, and so that FFmpeg is never handed a FIFO or device it could block on.
enum InputFileProblem: Equatable {
    case notFound
    case unreadable
    case isFolder
    /// A FIFO, socket or device: not something a picture is stored in.
    case notARegularFile
    case empty

    /// The problem with `path`, or nil when it is a non-empty regular file.
    static func check(path: String) -> InputFileProblem? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            return errno == EACCES ? .unreadable : .notFound
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .isFolder
        case S_IFREG: break
        default: return .notARegularFile
        }
        if status.st_size == 0 { return .empty }
        // Root passes every permission check, so this is the only check that works for both.
        return access(path, R_OK) == 0 ? nil : .unreadable
    }

    /// The problem a failed `open` reported, by its POSIX code.
    static func fromOpenError(errno code: Int32) -> InputFileProblem {
        switch code {
        case ENOENT, ENOTDIR: return .notFound
        case EISDIR: return .isFolder
        default: return .unreadable
        }
    }
}
