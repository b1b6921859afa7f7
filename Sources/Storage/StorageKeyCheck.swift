import Foundation
import GRDB

/// What this opening did about a history key that changed: rows sealed with another key are
/// kept aside (not mixed with the new key's rows, not deleted), and come back when that key
/// is put back. Said once: the next opening finds the key it recorded.
public struct KeyRecovery: Sendable, Equatable {
    public var keyFile: String
    /// History entries moved aside now because they do not open with the current key.
    public var setAside: Int
    /// History entries kept aside earlier that open with the current key again, brought back.
    public var restored: Int

    public var userMessage: String {
        var sentences: [String] = []
        if setAside > 0 {
            sentences.append("The history key \(keyFile) was missing or replaced, so a new key is in use; "
                + "\(setAside == 1 ? "1 earlier history entry" : "\(setAside) earlier history entries") sealed with the old key "
                + "\(setAside == 1 ? "was" : "were") kept aside and will come back if the old key file is put back.")
        }
        if restored > 0 {
            sentences.append("The earlier history key is back, so \(restored == 1 ? "1 history entry" : "\(restored) history entries") "
                + "kept aside \(restored == 1 ? "was" : "were") restored.")
        }
        return sentences.joined(separator: " ")
    }
}

/// Notices a changed history key at opening (issue 16: a deleted `storage.key` was silently
/// replaced, and every older row then blocked the whole history).
enum StorageKeyCheck {
    static let migrationName = "v2 storage key check"

    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration(migrationName) { db in
            try db.execute(sql: """
                -- The fingerprint of the key the history is sealed with (never the key itself).
                CREATE TABLE storageKeyCheck (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    fingerprint TEXT NOT NULL
                );
                -- History rows sealed with a key that is not the current one, kept as they were.
                CREATE TABLE detectionSetAside (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    announcedAt DOUBLE NOT NULL,
                    sealed BLOB NOT NULL
                );
                """)
        }
    }

    /// Compares the stored fingerprint with the current key's. Reads only when nothing changed,
    /// so a full disk does not stop the user's data from being read; when a write is needed and
    /// fails, nothing is moved and the check runs again at the next opening.
    static func reconcile(_ pool: any DatabaseWriter, cipher: ColumnCipher) -> KeyRecovery? {
        let fingerprint = cipher.fingerprint
        guard let (stored, asideCount) = try? pool.read({ db in
            (try String.fetchOne(db, sql: "SELECT fingerprint FROM storageKeyCheck WHERE id = 1"),
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM detectionSetAside") ?? 0)
        }) else { return nil }
        if stored == fingerprint && asideCount == 0 { return nil }
        let outcome = try? pool.write { db -> (Int, Int) in
            var setAside = 0, restored = 0
            if stored != fingerprint {
                for row in try DetectionRow.fetchAll(db) where !opens(row.sealed, at: row.announcedAt, cipher) {
                    try db.execute(sql: "INSERT INTO detectionSetAside (announcedAt, sealed) VALUES (?, ?)",
                                   arguments: [row.announcedAt, row.sealed])
                    try db.execute(sql: "DELETE FROM detection WHERE id = ?", arguments: [row.id])
                    setAside += 1
                }
                try db.execute(sql: "INSERT OR REPLACE INTO storageKeyCheck (id, fingerprint) VALUES (1, ?)", arguments: [fingerprint])
            }
            if asideCount > 0 {
                for row in try Row.fetchAll(db, sql: "SELECT id, announcedAt, sealed FROM detectionSetAside") {
                    let time: Double = row["announcedAt"], sealed: Data = row["sealed"], id: Int64 = row["id"]
                    guard opens(sealed, at: time, cipher) else { continue }
                    try db.execute(sql: "INSERT INTO detection (announcedAt, sealed) VALUES (?, ?)", arguments: [time, sealed])
                    try db.execute(sql: "DELETE FROM detectionSetAside WHERE id = ?", arguments: [id])
                    restored += 1
                }
            }
            return (setAside, restored)
        }
        guard let (setAside, restored) = outcome, setAside + restored > 0 else { return nil }
        return KeyRecovery(keyFile: cipher.keyFile.path, setAside: setAside, restored: restored)
    }

    private static func opens(_ sealed: Data, at time: Double, _ cipher: ColumnCipher) -> Bool {
        (try? cipher.open(sealed, context: DetectionHistory.context(time))) != nil
    }
}
