import AssistCore
import Foundation

/// Where a running session's control socket lives: `$XDG_RUNTIME_DIR/assistivekit/control.sock`
/// (the user's runtime folder: private, on tmpfs, emptied at logout), else
/// `/run/user/UID/assistivekit`, else a folder of the user's own in the temporary folder.
public enum ControlSocketLocation {
    public static let fileName = "control.sock"

    public static func folder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return URL(fileURLWithPath: runtime).appendingPathComponent("assistivekit")
        }
        let perUser = URL(fileURLWithPath: "/run/user/\(getuid())")
        if FileManager.default.isWritableFile(atPath: perUser.path) {
            return perUser.appendingPathComponent("assistivekit")
        }
        return FileManager.default.temporaryDirectory.appendingPathComponent("assistivekit-\(getuid())")
    }

    public static func socket(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        folder(environment: environment).appendingPathComponent(fileName)
    }

    /// Beside the control socket: the running session's latest analysed frame (`LiveViewServer`).
    public static func viewSocket(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        folder(environment: environment).appendingPathComponent("view.sock")
    }

    /// Creates the folder readable by the user alone, and refuses one that someone else owns or
    /// others can enter (a shared temporary folder could be prepared by another user).
    public static func prepareFolder(_ folder: URL) throws {
        // A link is refused before anything is made through it: it could lead the socket into a
        // folder another user can reach, and creating "through" a dangling one fails with
        // Foundation's bare "Code=516" (issue 16).
        var status = stat()
        if lstat(folder.path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
            throw ControlSocketError.symbolicLink(path: folder.path)
        }
        do { try UserDirectories.ensureExists(folder) } catch {
            throw ControlSocketError.folderNotCreated(path: folder.path, reason: Self.reason(error))
        }
        guard lstat(folder.path, &status) == 0 else { throw ControlSocketError.unsafeFolder(path: folder.path) }
        guard status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid() else {
            throw ControlSocketError.unsafeFolder(path: folder.path)
        }
        if status.st_mode & 0o077 != 0 { chmod(folder.path, 0o700) }
    }

    /// The system's words for why a folder could not be made, never Foundation's domain and code.
    private static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let posix = underlying, posix.domain == NSPOSIXErrorDomain {
            if posix.code == Int(EEXIST) { return "something that is not a folder is already there" }
            return String(cString: strerror(Int32(posix.code)))
        }
        switch (error as? CocoaError)?.code {
        case .fileWriteNoPermission?: return String(cString: strerror(EACCES))
        case .fileWriteFileExists?: return "something that is not a folder is already there"
        case .fileWriteOutOfSpace?: return String(cString: strerror(ENOSPC))
        case .fileWriteVolumeReadOnly?: return String(cString: strerror(EROFS))
        default: return "it could not be created"
        }
    }
}

/// Problems with the control socket, each told in one sentence.
public enum ControlSocketError: UserFacingError, Equatable {
    case unsafeFolder(path: String)
    case symbolicLink(path: String)
    case folderNotCreated(path: String, reason: String)
    case pathTooLong(path: String)
    case system(call: String, code: Int32)
    case noSession(path: String)
    case noReply
    case alreadyInUse(path: String)

    public var userMessage: String {
        switch self {
        case .unsafeFolder(let path):
            return "The control folder \(path) belongs to someone else or is not a folder, so no control socket was opened."
        case .symbolicLink(let path):
            return "The control folder \(path) is a symbolic link, so no control socket was opened; remove the link and assist makes the folder itself."
        case .folderNotCreated(let path, let reason):
            return "The control folder \(path) could not be made (\(reason)), so no control socket was opened."
        case .pathTooLong(let path):
            return "The control socket path \(path) is too long for a Unix socket; set XDG_RUNTIME_DIR to a shorter folder."
        case .system(let call, let code):
            return "The control socket failed (\(call): \(String(cString: strerror(code))))."
        case .noSession:
            return "No assist session is running; start one with assist see VIDEO or assist console."
        case .noReply:
            return "The running session did not answer in time."
        case .alreadyInUse(let path):
            return "Another assist session already takes commands at \(path), so assist ctl reaches that one, not this one."
        }
    }
}
