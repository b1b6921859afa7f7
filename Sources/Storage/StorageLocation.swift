import AssistCore
import Foundation

/// Where the user's database and the key that encrypts its sensitive columns live.
///
/// The two are deliberately in different XDG folders: the database in `$XDG_DATA_HOME` (the
/// folder users back up, sync or copy to a new machine), the key in `$XDG_CONFIG_HOME`. A copy of
/// the data folder alone — a sync client, a careless archive, a support request — then carries
/// history that cannot be read. Both paths follow the environment so tests never touch the home.
public struct StorageLocation: Sendable, Equatable {
    /// The SQLite database, `$XDG_DATA_HOME/assistivekit/assistivekit.sqlite`.
    public var databaseFile: URL
    /// The 256-bit column key, `$XDG_CONFIG_HOME/assistivekit/storage.key` (0600).
    public var keyFile: URL

    public init(databaseFile: URL, keyFile: URL) {
        self.databaseFile = databaseFile
        self.keyFile = keyFile
    }

    /// The standard locations for the given environment.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        databaseFile = UserDirectories.data(environment: environment).appendingPathComponent("assistivekit.sqlite")
        keyFile = Self.configDirectory(environment: environment).appendingPathComponent("storage.key")
    }

    /// `$XDG_CONFIG_HOME/assistivekit` (default `~/.config/assistivekit`), the folder
    /// `ModelLocator` also reads its `config.json` from.
    public static func configDirectory(environment: [String: String]) -> URL {
        let root = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".config")
        return root.appendingPathComponent("assistivekit")
    }
}
