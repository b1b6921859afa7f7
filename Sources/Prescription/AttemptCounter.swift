import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The count of wrong passphrases in a row, kept apart from `auth.json` in a small file of
/// fixed size (`attempts`), for two reasons (issue 16):
///
/// - It is authenticated (HMAC-SHA256 under a key bound to this store's salt and key check), so
///   setting the count to 0 by hand no longer lifts a lock: a record that does not check out
///   counts as a lock. This stops editing the file, not someone who recomputes the MAC from this
///   source; against a person with the files only the memory-hard KDF helps (see `LockoutPolicy`).
/// - It is rewritten in place, same length, at the same offset, so counting an attempt needs no
///   new disk blocks: a full disk no longer stops the patient from unlocking their prescription.
struct AttemptRecord: Equatable {
    var consecutiveFailures: Int
    var failuresSinceUnlock: Int
    var lastFailure: Date?

    static let none = AttemptRecord(consecutiveFailures: 0, failuresSinceUnlock: 0, lastFailure: nil)
}

enum AttemptFile {
    static let version: UInt8 = 1
    /// version (1) + consecutive (4) + since unlock (4) + last failure (8) + MAC (32), padded.
    static let size = 64

    enum Reading: Equatable {
        case missing
        case valid(AttemptRecord)
        /// Edited, cut, or from another store.
        case notAuthentic
    }

    static func key(salt: Data, keyCheck: Data) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: salt + keyCheck),
                               info: Data("patient store attempt counter".utf8), outputByteCount: 32)
    }

    static func encode(_ record: AttemptRecord, key: SymmetricKey) -> Data {
        var bytes = Data([version])
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) } }
        append(UInt32(clamping: record.consecutiveFailures))
        append(UInt32(clamping: record.failuresSinceUnlock))
        append((record.lastFailure?.timeIntervalSince1970 ?? -1).bitPattern)
        bytes.append(contentsOf: HMAC<SHA256>.authenticationCode(for: bytes, using: key))
        bytes.append(Data(repeating: 0, count: size - bytes.count))
        return bytes
    }

    static func decode(_ data: Data, key: SymmetricKey) -> Reading {
        let bytes = [UInt8](data)
        guard bytes.count == size, bytes[0] == version else { return .notAuthentic }
        let body = Data(bytes[0..<17]), mac = Data(bytes[17..<49])
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: body, using: key),
              bytes[49...].allSatisfy({ $0 == 0 }) else { return .notAuthentic }
        func integer<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            bytes[offset..<offset + MemoryLayout<T>.size].reduce(T(0)) { $0 << 8 | T($1) }
        }
        let seconds = Double(bitPattern: integer(9, UInt64.self))
        return .valid(AttemptRecord(consecutiveFailures: Int(integer(1, UInt32.self)),
                                    failuresSinceUnlock: Int(integer(5, UInt32.self)),
                                    lastFailure: seconds < 0 ? nil : Date(timeIntervalSince1970: seconds)))
    }

    static func read(_ url: URL, key: SymmetricKey) -> Reading {
        guard let data = FileManager.default.contents(atPath: url.path) else { return .missing }
        return decode(data, key: key)
    }

    /// Overwrites the record in place (creating the file, 0600, when it is missing) and flushes it.
    static func write(_ record: AttemptRecord, to url: URL, key: SymmetricKey) throws {
        let data = encode(record, key: key)
        let fd = open(url.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw PrescriptionError.storeUnwritable(path: url.path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let written = data.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        guard written == data.count, fsync(fd) == 0 else {
            throw PrescriptionError.storeUnwritable(path: url.path, reason: "the disk refused the write")
        }
    }
}
