import AssistCore
import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Seals the sensitive columns (what was detected, where, how sure) with AES-256-GCM.
///
/// Why column encryption rather than SQLCipher: GRDB links SQLCipher only by editing GRDB's own
/// Package.swift (its `GRDBSQLite` target is the system SQLite), which a dependent package
/// cannot do, and Debian's libsqlcipher would replace SQLite for every other user of GRDB in the
/// process. Encrypting the few sensitive columns with swift-crypto keeps the stock SQLite, keeps
/// timestamps in clear so retention is a plain indexed `DELETE`, and lets the byte-search test
/// prove no label is stored in clear. GCM's tag also detects a row edited on disk.
struct ColumnCipher: Sendable {
    // The raw bytes, because swift-crypto 3.x does not mark `SymmetricKey` Sendable on Linux.
    private let keyBytes: Data
    let keyFile: URL
    private var key: SymmetricKey { SymmetricKey(data: keyBytes) }

    /// Reads the key file, creating it (32 random bytes, 0600, in a 0700 folder) on first use.
    /// Creation writes a temporary file and hard-links it into place, so two processes starting
    /// at once agree on one key instead of one overwriting the other's.
    static func loadOrCreate(keyFile: URL) throws -> ColumnCipher {
        let folder = keyFile.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw StorageError.keyUnavailable(path: keyFile.path, reason: "its folder cannot be created")
        }
        if let data = FileManager.default.contents(atPath: keyFile.path) {
            // A key readable by others (made 0644 by hand or by a copy) is narrowed back to 0600.
            if let mode = (try? FileManager.default.attributesOfItem(atPath: keyFile.path))?[.posixPermissions] as? Int,
               mode & 0o077 != 0 {
                chmod(keyFile.path, 0o600)
            }
            return try cipher(from: data, keyFile: keyFile)
        }
        let fresh = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        let temporary = folder.appendingPathComponent(".storage.key.\(getpid()).\(UInt64.random(in: 0...UInt64.max))")
        do { try PrivateFile.write(fresh, to: temporary) } catch {
            throw StorageError.keyUnavailable(path: keyFile.path, reason: error.userMessage)
        }
        defer { unlink(temporary.path) }
        if link(temporary.path, keyFile.path) != 0 && errno != EEXIST {
            throw StorageError.keyUnavailable(path: keyFile.path, reason: String(cString: strerror(errno)))
        }
        guard let data = FileManager.default.contents(atPath: keyFile.path) else {
            throw StorageError.keyUnavailable(path: keyFile.path, reason: "it cannot be read back")
        }
        return try cipher(from: data, keyFile: keyFile)
    }

    private static func cipher(from data: Data, keyFile: URL) throws -> ColumnCipher {
        guard data.count == 32 else {
            throw StorageError.keyUnavailable(path: keyFile.path, reason: "it holds \(data.count) bytes instead of 32")
        }
        return ColumnCipher(keyBytes: data, keyFile: keyFile)
    }

    /// Names the key without revealing it: the first 16 hex digits of SHA-256 over a fixed label
    /// and the key. Stored in the database, so a replaced key is noticed before any row is read.
    var fingerprint: String {
        var hash = SHA256()
        hash.update(data: Data("assistivekit.storage-key.fingerprint".utf8))
        hash.update(data: keyBytes)
        return hash.finalize().prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    /// Nonce (12 bytes) + ciphertext + tag (16 bytes). `context` is authenticated, not stored:
    /// it binds a sealed value to its row, so a value copied onto another row fails to open.
    func seal(_ plaintext: Data, context: Data) throws -> Data {
        try AES.GCM.seal(plaintext, using: key, authenticating: context).combined!
    }

    func open(_ sealed: Data, context: Data) throws -> Data {
        do {
            return try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key, authenticating: context)
        } catch {
            throw StorageError.historyKeyMismatch(keyPath: keyFile.path)
        }
    }
}
