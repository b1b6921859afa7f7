import Foundation

/// The user's XDG folders for AssistiveKit, created on first use with owner-only permissions.
public enum UserDirectories {
    /// `$XDG_CACHE_HOME/assistivekit` (default `~/.cache/assistivekit`): safe to delete.
    public static func cache(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        base(environment["XDG_CACHE_HOME"], fallback: ".cache", environment: environment)
    }

    /// `$XDG_DATA_HOME/assistivekit` (default `~/.local/share/assistivekit`): the user's data.
    public static func data(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        base(environment["XDG_DATA_HOME"], fallback: ".local/share", environment: environment)
    }

    /// Creates `url` (and parents) readable by the user alone.
    public static func ensureExists(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    private static func base(_ xdg: String?, fallback: String, environment: [String: String]) -> URL {
        let root = xdg.flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(fallback)
        return root.appendingPathComponent("assistivekit")
    }
}
