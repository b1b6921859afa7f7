import AssistCore
import Foundation
import GRDB

/// The user's AssistiveKit database: settings, detection history and usage sessions in one
/// SQLite file (WAL mode, so a running `assist see` reads while another command writes).
///
/// Opening it creates what is missing (folders 0700, the file 0600 before SQLite first touches
/// it, so its `-wal` and `-shm` companions inherit 0600), runs the named migrations, and checks
/// the file's integrity. A damaged file is moved aside and a fresh one with default settings is
/// created; `recovery` then says so, once, because the next opening finds a healthy file.
public final class UserDatabase: Sendable {
    public struct Options: Sendable {
        /// How long a write waits for another process's write to finish before failing.
        public var busyTimeoutSeconds: Double
        /// A cap on the file's size (`PRAGMA max_page_count`); nil for SQLite's own limit. Past
        /// it SQLite reports SQLITE_FULL exactly as on a full disk, so the cap also lets tests
        /// exercise the disk-full path without a privileged tmpfs.
        public var maximumSizeBytes: Int?

        public init(busyTimeoutSeconds: Double = 10, maximumSizeBytes: Int? = nil) {
            self.busyTimeoutSeconds = busyTimeoutSeconds
            self.maximumSizeBytes = maximumSizeBytes
        }
    }

    public let location: StorageLocation
    /// Set when this opening found the file damaged and replaced it.
    public let recovery: DatabaseRecovery?
    /// Set when this opening found the history key changed (see `KeyRecovery`).
    public let keyRecovery: KeyRecovery?
    /// Set when the file could be opened for reading only (a full disk, a folder that refuses
    /// writes): the stored settings are still used, and nothing is saved. Said once by the caller.
    public let readOnly: ReadOnlyOpening?
    let pool: any DatabaseWriter
    let cipher: ColumnCipher

    private init(location: StorageLocation, recovery: DatabaseRecovery?, pool: any DatabaseWriter, cipher: ColumnCipher,
                 readOnly: ReadOnlyOpening? = nil) {
        self.location = location
        self.recovery = recovery
        self.readOnly = readOnly
        self.keyRecovery = readOnly == nil ? StorageKeyCheck.reconcile(pool, cipher: cipher) : nil
        self.pool = pool
        self.cipher = cipher
    }

    /// Whether changes can be saved (false when opened for reading only).
    public var isReadOnly: Bool { readOnly != nil }

    /// Opens (creating if needed) the database at `location`.
    public static func open(_ location: StorageLocation = StorageLocation(), options: Options = Options()) throws -> UserDatabase {
        let file = location.databaseFile
        // Checked before anything is opened: a FIFO blocks the opener, and a folder at the
        // database's path is no full disk (issue 39 found both).
        for path in [location.keyFile.path, file.path] {
            if let kind = NotARegularFile.at(path: path) { throw StorageError.notARegularFile(path: path, kind: kind) }
        }
        // SQLite opens the write-ahead log and its index beside the database itself: a FIFO,
        // socket or device there could block it. A folder there only refuses SQLite's write, as
        // a full disk does, and the data is then read without saving (issue 16).
        for path in [file.path + "-wal", file.path + "-shm"] {
            if let kind = NotARegularFile.at(path: path), kind != .folder { throw StorageError.notARegularFile(path: path, kind: kind) }
        }
        let cipher = try ColumnCipher.loadOrCreate(keyFile: location.keyFile)
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw StorageError.databaseUnavailable(path: file.path, reason: "its folder cannot be created")
        }
        do {
            let pool = try openChecked(file, options: options)
            return UserDatabase(location: location, recovery: nil, pool: pool, cipher: cipher)
        } catch let refused as StorageError where refused.isRefusedWrite {
            // Reading never needs writing (issue 16: on a full disk `see` used the defaults).
            guard let pool = openForReadingOnly(file) else { throw refused }
            return UserDatabase(location: location, recovery: nil, pool: pool, cipher: cipher,
                                readOnly: ReadOnlyOpening(path: file.path, problem: refused))
        } catch let damage as DamagedFile {
            let movedTo = try moveAside(file)
            let pool: DatabasePool
            do {
                pool = try openChecked(file, options: options)
            } catch let error as DamagedFile {
                throw StorageError.databaseUnavailable(path: file.path, reason: error.reason)
            }
            return UserDatabase(location: location,
                                recovery: DatabaseRecovery(damagedFileMovedTo: movedTo, problem: damage.reason),
                                pool: pool, cipher: cipher)
        }
    }

    /// Writes the WAL back into the main file and closes it, now rather than when the last
    /// reference goes. The explicit checkpoint matters: GRDB closes the writer before the
    /// read-only readers, and a read-only connection closing last cannot checkpoint, so
    /// without it the newest pages would stay in the `-wal` file.
    public func close() throws {
        _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try pool.close()
    }

    private struct DamagedFile: Error { let reason: String }

    /// SQLITE_CORRUPT and SQLITE_NOTADB mean damage; other errors (permissions, a folder where
    /// the file should be) are not fixed by moving the file, so they are reported instead.
    private static func openChecked(_ file: URL, options: Options) throws -> DatabasePool {
        if !FileManager.default.fileExists(atPath: file.path) {
            guard FileManager.default.createFile(atPath: file.path, contents: nil,
                                                 attributes: [.posixPermissions: 0o600]) else {
                throw StorageError.databaseUnavailable(path: file.path, reason: "the folder is not writable")
            }
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(options.busyTimeoutSeconds)
        configuration.label = "AssistiveKit"
        if let maximumSizeBytes = options.maximumSizeBytes {
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA max_page_count = \(max(1, maximumSizeBytes / 4096))")
            }
        }
        do {
            let pool = try DatabasePool(path: file.path, configuration: configuration)
            do {
                let check = try pool.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
                guard check == ["ok"] else { throw DamagedFile(reason: check.prefix(3).joined(separator: "; ")) }
                try migrator.migrate(pool)
                return pool
            } catch {
                // Closed before the file is moved, so nothing is written to it afterwards.
                try? pool.close()
                throw error
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB {
            throw DamagedFile(reason: error.message ?? "\(error.resultCode)")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            throw StorageError.diskFull(path: file.path)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_IOERR || error.resultCode == .SQLITE_CANTOPEN
                                                    || error.resultCode == .SQLITE_READONLY {
            // SQLite's "disk I/O error" on opening is, on a working machine, a full disk or a
            // folder that cannot be written (issue 16: it reached the user as those words).
            throw StorageError.databaseUnavailable(path: file.path, reason: StorageError.writeRefusedReason)
        } catch let error as DatabaseError {
            throw StorageError.databaseUnavailable(path: file.path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    /// The file as it is on disk, read without SQLite's companion files (`immutable=1`: no lock,
    /// no `-shm`, no `-wal`, each of which needs a write). What only a `-wal` holds — a change
    /// from a run that did not close — is not seen, the rest is. Nil when even that fails.
    private static func openForReadingOnly(_ file: URL) -> DatabaseQueue? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        guard let path = file.path.addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "AssistiveKit (read only)"
        guard let queue = try? DatabaseQueue(path: "file:\(path)?immutable=1", configuration: configuration),
              (try? queue.read({ db in try migrator.hasCompletedMigrations(db) })) == true else { return nil }
        return queue
    }

    /// Renames the damaged file (and its WAL, which belongs to it) to `NAME.damaged-TIMESTAMP`,
    /// kept for the user rather than deleted: it may still hold history worth recovering by hand.
    private static func moveAside(_ file: URL) throws -> URL {
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
        let target = file.deletingLastPathComponent().appendingPathComponent("\(file.lastPathComponent).damaged-\(stamp)")
        do {
            try FileManager.default.moveItem(at: file, to: target)
        } catch {
            throw StorageError.databaseUnavailable(path: file.path, reason: "it is damaged and cannot be moved aside")
        }
        for suffix in ["-wal", "-shm"] {
            let companion = URL(fileURLWithPath: file.path + suffix)
            if suffix == "-wal" {
                try? FileManager.default.moveItem(at: companion, to: URL(fileURLWithPath: target.path + suffix))
            } else {
                try? FileManager.default.removeItem(at: companion)
            }
        }
        return target
    }

    /// One migration per schema change, never edited once shipped (STYLE.md §4).
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 settings") { db in
            // One row per setting the user changed; absent keys take the built-in default.
            try db.execute(sql: """
                CREATE TABLE setting (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL,
                    updatedAt DOUBLE NOT NULL
                );
                -- Bumped by triggers on every change, by any process or tool, so a running
                -- `assist see` notices a change with one cheap read.
                CREATE TABLE settingsRevision (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    revision INTEGER NOT NULL
                );
                INSERT INTO settingsRevision (id, revision) VALUES (1, 0);
                CREATE TRIGGER settingInserted AFTER INSERT ON setting
                    BEGIN UPDATE settingsRevision SET revision = revision + 1; END;
                CREATE TRIGGER settingUpdated AFTER UPDATE ON setting
                    BEGIN UPDATE settingsRevision SET revision = revision + 1; END;
                CREATE TRIGGER settingDeleted AFTER DELETE ON setting
                    BEGIN UPDATE settingsRevision SET revision = revision + 1; END;
                """)
        }
        migrator.registerMigration("v1 detection history") { db in
            // Only the announcement time is in clear (for ordering and retention); what was
            // seen, where and how sure is one AES-GCM sealed blob. No image column, ever.
            try db.execute(sql: """
                CREATE TABLE detection (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    announcedAt DOUBLE NOT NULL,
                    sealed BLOB NOT NULL
                );
                CREATE INDEX detectionByTime ON detection(announcedAt);
                """)
        }
        migrator.registerMigration("v1 usage sessions") { db in
            try db.execute(sql: """
                CREATE TABLE usageSession (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    mode TEXT NOT NULL,
                    startedAt DOUBLE NOT NULL,
                    lastActiveAt DOUBLE NOT NULL,
                    endedAt DOUBLE,
                    frames INTEGER NOT NULL DEFAULT 0,
                    objectsAnnounced INTEGER NOT NULL DEFAULT 0,
                    batteryUsedPercent DOUBLE
                );
                CREATE INDEX usageSessionByStart ON usageSession(startedAt);
                """)
        }
        StorageKeyCheck.register(in: &migrator)
        return migrator
    }()

    /// A write transaction (IMMEDIATE, so concurrent writers queue on the busy timeout instead of
    /// failing mid-transaction) whose SQLITE_FULL becomes `StorageError.diskFull`. SQLite rolls
    /// the whole transaction back on failure, which is what keeps earlier data intact.
    func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) throws -> T {
        do {
            return try pool.write(updates)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            throw StorageError.diskFull(path: location.databaseFile.path)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
            throw StorageError.databaseUnavailable(path: location.databaseFile.path, reason: StorageError.writeRefusedReason)
        }
    }

    func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) throws -> T {
        try pool.read(value)
    }
}

/// The database could be opened for reading only: why, and the sentence to tell the user once.
public struct ReadOnlyOpening: Sendable, Equatable {
    public var path: String
    /// The write that was refused (a full disk, a folder that cannot be written).
    public var problem: StorageError

    public var userMessage: String {
        "The disk refused to write \(path) (it may be full, or the folder read-only), so your saved settings are used but nothing is saved this time: no history, no usage, no setting changes."
    }
}

/// What happened when a damaged database was replaced.
public struct DatabaseRecovery: Sendable, Equatable {
    /// Where the damaged file now is.
    public var damagedFileMovedTo: URL
    /// SQLite's description of the damage.
    public var problem: String

    /// The one sentence to tell the user.
    public var userMessage: String {
        "Your AssistiveKit data file was damaged, so it was moved to \(damagedFileMovedTo.path) and default settings were restored."
    }
}
