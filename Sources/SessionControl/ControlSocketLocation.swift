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

    /// Creates the folder readable by the user alone, and refuses one that someone else owns or
    /// others can enter (a shared temporary folder could be prepared by another user).
    public static func prepareFolder(_ folder: URL) throws {
        try UserDirectories.ensureExists(folder)
        var status = stat()
        guard lstat(folder.path, &status) == 0 else { throw ControlSocketError.unsafeFolder(path: folder.path) }
        guard status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid() else {
            throw ControlSocketError.unsafeFolder(path: folder.path)
        }
        if status.st_mode & 0o077 != 0 { chmod(folder.path, 0o700) }
    }
}

/// Problems with the control socket, each told in one sentence.
public enum ControlSocketError: UserFacingError, Equatable {
    case unsafeFolder(path: String)
    case pathTooLong(path: String)
    case system(call: String, code: Int32)
    case noSession(path: String)
    case noReply
    case alreadyInUse(path: String)

    public var userMessage: String {
        switch self {
        case .unsafeFolder(let path):
            return "The control folder \(path) belongs to someone else or is not a folder, so no control socket was opened."
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
