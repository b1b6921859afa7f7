#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What is wrong with a path before any decoder sees it. Checked first so that the common
/// mistakes (a typo, a folder, an empty file) get their own sentence instead of a decoder's
/// guess, and so that FFmpeg is never handed a FIFO or device it could block on.
public enum InputFileProblem: Equatable, Sendable {
    case notFound
    case unreadable
    case isFolder
    /// A FIFO, socket or device: not something a picture is stored in.
    case notARegularFile
    case empty

    /// The problem with `path`, or nil when it is a non-empty regular file.
    public static func check(path: String) -> InputFileProblem? {
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
    public static func fromOpenError(errno code: Int32) -> InputFileProblem {
        switch code {
        case ENOENT, ENOTDIR: return .notFound
        case EISDIR: return .isFolder
        default: return .unreadable
        }
    }
}

/// What stands at a path where a data file belongs, when it is not a regular file: a folder, a
/// named pipe (FIFO), a socket or a device. Opening a FIFO blocks until another process writes
/// to it (issue 39: every command hung), so a data file is opened only after this says nil.
public enum NotARegularFile: Equatable, Sendable {
    case folder, namedPipe, socket, device

    /// nil when nothing is at `path` (it may be created) or a regular file is (a symbolic link
    /// is followed).
    public static func at(path: String) -> NotARegularFile? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return .folder
        case S_IFIFO: return .namedPipe
        case S_IFSOCK: return .socket
        default: return .device
        }
    }

    /// "a folder", "a named pipe (FIFO)", ...: what the sentence says is there.
    public var description: String {
        switch self {
        case .folder: return "a folder"
        case .namedPipe: return "a named pipe (FIFO)"
        case .socket: return "a socket"
        case .device: return "a device"
        }
    }
}
