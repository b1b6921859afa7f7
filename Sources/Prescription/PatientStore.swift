import AssistCore
import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The patient's protected store of prescriptions (folder `$XDG_DATA_HOME/assistivekit/prescriptions`).
///
/// Files, each readable by the user alone (0600 in a 0700 folder):
///
/// - `auth.json`: scrypt's cost and salt, a key-check value. No patient data; it is in clear,
///   because the delay must be enforced before any key exists. Written once, at creation.
/// - `attempts`: the count of wrong passphrases, authenticated and rewritten in place (see
///   `AttemptFile`), so unlocking never needs new disk space and the count cannot be edited.
/// - `state.sealed`: trusted audiologist keys, the active profile, the audit log's head.
/// - `profiles/<id>.rx`: one imported prescription each, exactly the signed QR text.
/// - `audit.log`: one sealed, hash-chained entry a line.
///
/// Everything but `auth.json` is AES-256-GCM under keys derived (HKDF-SHA256) from
/// scrypt(passphrase, salt), with the file's role as authenticated data. So without the
/// passphrase nothing in the store names the patient or their thresholds, an edited or swapped
/// file fails to open, and every stored prescription's signature is checked again on each load.
public struct PatientStore: Sendable {
    public let folder: URL
    public let cost: ScryptCost
    public let policy: LockoutPolicy
    /// Who the audit log names for what this process does: the login name.
    public let user: String
    public let clock: @Sendable () -> Date
    /// Told when an access that changes nothing (unlocking, listing, showing) could not be
    /// written to the audit log, for example on a full disk: the access still works, because
    /// reading must never need writing, and the user is told what was not recorded.
    public let unrecordedAccess: @Sendable (String) -> Void

    public static let minimumPassphraseCharacters = 6

    public init(folder: URL, cost: ScryptCost = .standard, policy: LockoutPolicy = .standard,
                user: String = PatientStore.currentUser, clock: @escaping @Sendable () -> Date = { Date() },
                unrecordedAccess: @escaping @Sendable (String) -> Void = { _ in }) {
        self.unrecordedAccess = unrecordedAccess
        self.folder = folder
        self.cost = cost
        self.policy = policy
        self.user = user
        self.clock = clock
    }

    /// `$XDG_DATA_HOME/assistivekit/prescriptions`.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/share")
        return base.appendingPathComponent("assistivekit/prescriptions")
    }

    public static var currentUser: String {
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return ProcessInfo.processInfo.environment["USER"] ?? "uid \(getuid())"
    }

    var authFile: URL { folder.appendingPathComponent("auth.json") }
    var attemptsFile: URL { folder.appendingPathComponent("attempts") }

    /// True once a passphrase has been set.
    public var exists: Bool { FileManager.default.fileExists(atPath: authFile.path) }

    /// First use: sets the passphrase and makes the empty store.
    public func create(passphrase: String) throws -> UnlockedPatientStore {
        guard passphrase.count >= Self.minimumPassphraseCharacters else {
            throw PrescriptionError.passphraseTooShort(minimumCharacters: Self.minimumPassphraseCharacters)
        }
        try StoreFiles.makeFolder(folder)
        try StoreFiles.makeFolder(folder.appendingPathComponent("profiles"))
        return try StoreFiles.withLock(folder) {
            guard !exists else { throw PrescriptionError.storeAlreadyExists(path: folder.path) }
            let salt = Sealing.randomBytes(16)
            let master = try cost.deriveKey(passphrase: passphrase, salt: salt)
            let keys = StoreKeys(master: master)
            let auth = AuthRecord(version: 1, cost: cost, salt: salt,
                                  keyCheck: try Sealing.seal(AuthRecord.keyCheckPlaintext, key: keys.check, context: "key check"),
                                  consecutiveFailures: 0, lastFailure: nil, failuresSinceUnlock: 0)
            let store = UnlockedPatientStore(store: self, keys: keys)
            try store.writeState(StoreState(trustedKeys: [], activeProfile: nil, auditCount: 0, auditHead: AuditLog.genesis))
            try AttemptFile.write(.none, to: attemptsFile, key: AttemptFile.key(salt: auth.salt, keyCheck: auth.keyCheck))
            try StoreFiles.write(try JSONEncoder.sorted.encode(auth), to: authFile)
            try store.audit("created the patient store")
            return store
        }
    }

    /// How long until the next attempt is allowed (0 when it is now), and whether it is a lock.
    public func waitBeforeNextAttempt() throws -> (seconds: Int, isLock: Bool) {
        try StoreFiles.checkKinds(in: folder)
        let attempts = readAttempts(try readAuth())
        return (remainingWait(attempts), policy.isLock(afterFailures: attempts.consecutiveFailures))
    }

    /// Opens the store. A wrong passphrase is counted on disk *before* the slow key derivation,
    /// so killing the program mid-attempt does not give a free guess.
    public func unlock(passphrase: String) throws -> UnlockedPatientStore {
        try StoreFiles.withLock(folder) {
            let auth = try readAuth()
            let attemptKey = AttemptFile.key(salt: auth.salt, keyCheck: auth.keyCheck)
            var attempts = readAttempts(auth)
            let wait = remainingWait(attempts)
            if wait > 0 {
                throw policy.isLock(afterFailures: attempts.consecutiveFailures)
                    ? PrescriptionError.locked(seconds: wait) : PrescriptionError.tryAgainLater(seconds: wait)
            }
            attempts.consecutiveFailures += 1
            attempts.failuresSinceUnlock += 1
            attempts.lastFailure = clock()
            try AttemptFile.write(attempts, to: attemptsFile, key: attemptKey)
            let keys = StoreKeys(master: try auth.cost.deriveKey(passphrase: passphrase, salt: auth.salt))
            guard Sealing.open(auth.keyCheck, key: keys.check, context: "key check") == AuthRecord.keyCheckPlaintext else {
                throw PrescriptionError.wrongPassphrase(attemptsBeforeDelay: max(0, policy.freeAttempts - attempts.consecutiveFailures))
            }
            let failedBefore = attempts.failuresSinceUnlock - 1
            // In place, so it cannot fail for lack of space; if it fails anyway the next attempt
            // waits as after one wrong passphrase, which is safe.
            try? AttemptFile.write(.none, to: attemptsFile, key: attemptKey)
            let store = UnlockedPatientStore(store: self, keys: keys)
            store.auditAccess("unlocked the store", detail: failedBefore > 0 ? "after \(failedBefore) wrong passphrase\(failedBefore == 1 ? "" : "s")" : nil,
                              holdingLock: true)
            return store
        }
    }

    /// The attempt count. A store made before `attempts` existed keeps its count in auth.json. A
    /// record that is not authentic (edited by hand) counts as a lock from now, written back so
    /// the lock ends after `lockSeconds` even if the file was merely damaged.
    func readAttempts(_ auth: AuthRecord) -> AttemptRecord {
        let key = AttemptFile.key(salt: auth.salt, keyCheck: auth.keyCheck)
        switch AttemptFile.read(attemptsFile, key: key) {
        case .valid(let record):
            return record
        case .missing:
            return AttemptRecord(consecutiveFailures: auth.consecutiveFailures, failuresSinceUnlock: auth.failuresSinceUnlock,
                                 lastFailure: auth.lastFailure)
        case .notAuthentic:
            let locked = AttemptRecord(consecutiveFailures: max(policy.lockAfterFailures, 1), failuresSinceUnlock: policy.lockAfterFailures,
                                       lastFailure: clock())
            try? AttemptFile.write(locked, to: attemptsFile, key: key)
            return locked
        }
    }

    private func remainingWait(_ attempts: AttemptRecord) -> Int {
        guard let last = attempts.lastFailure else { return 0 }
        let until = last.addingTimeInterval(TimeInterval(policy.waitSeconds(afterFailures: attempts.consecutiveFailures)))
        let remaining = until.timeIntervalSince(clock())
        return remaining > 0 ? Int(remaining.rounded(.up)) : 0
    }

    /// Called under `StoreFiles.withLock`, which has checked the files' kinds, or after
    /// `checkKinds` (`waitBeforeNextAttempt`).
    func readAuth() throws -> AuthRecord {
        guard let data = FileManager.default.contents(atPath: authFile.path) else {
            throw PrescriptionError.storeNotCreated(path: folder.path)
        }
        guard let auth = try? JSONDecoder.sorted.decode(AuthRecord.self, from: data), auth.version == 1 else {
            throw PrescriptionError.storeDamaged(file: "auth.json")
        }
        return auth
    }

}

/// The clear part of the store: how to derive the key. The attempt fields are read only from
/// stores made before the `attempts` file; new stores keep them 0.
struct AuthRecord: Codable {
    static let keyCheckPlaintext = Data("AssistiveKit patient store".utf8)
    var version: Int
    var cost: ScryptCost
    var salt: Data
    var keyCheck: Data
    var consecutiveFailures: Int
    var lastFailure: Date?
    /// Told in the audit log at the next unlock (a failure has no key to write the log with).
    var failuresSinceUnlock: Int
}

/// One key per purpose, from the single scrypt output.
struct StoreKeys: @unchecked Sendable {
    // swift-crypto 3.x does not mark SymmetricKey Sendable on Linux; these are immutable.
    let check: SymmetricKey
    let state: SymmetricKey
    let profiles: SymmetricKey
    let audit: SymmetricKey

    init(master: SymmetricKey) {
        check = Sealing.subkey(master, purpose: "patient store key check")
        state = Sealing.subkey(master, purpose: "patient store state")
        profiles = Sealing.subkey(master, purpose: "patient store profiles")
        audit = Sealing.subkey(master, purpose: "patient store audit log")
    }
}

struct StoreState: Codable {
    var trustedKeys: [AudiologistPublicKey]
    var activeProfile: String?
    /// The audit log's entry count and chain hash when last written: a log cut short is detected.
    var auditCount: Int
    var auditHead: Data
    /// SHA-256 of the fitting the hearing assistant last started with, so its gentle ramp-in
    /// happens after a new prescription only. Kept here, sealed, because even a fitting's
    /// digest is about the patient. Absent in stores made before it existed.
    var lastStartedFitting: Data?
}

/// Files readable by the user alone, written whole (temporary file, then rename) so a crash
/// never leaves half a file, and one writer at a time across processes (flock).
enum StoreFiles {
    static func makeFolder(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            chmod(url.path, 0o700)
        } catch {
            throw PrescriptionError.storeUnwritable(path: url.path, reason: "the folder cannot be created")
        }
    }

    static func write(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max))")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw PrescriptionError.storeUnwritable(path: url.path, reason: String(cString: strerror(errno))) }
        let written = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let writeError = errno
        let synced = fsync(fd)
        close(fd)
        guard written == data.count, synced == 0, rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw PrescriptionError.storeUnwritable(path: url.path, reason: StoreFiles.reason(written < 0 ? writeError : errno))
        }
    }

    /// The words for why a write failed: a full disk is said as such.
    static func reason(_ code: Int32) -> String {
        code == ENOSPC || code == EDQUOT || code == EFBIG ? "there is no room left on the disk" : "the disk refused the write"
    }

    static func append(_ line: Data, to url: URL) throws {
        try checkKind(url)
        let fd = open(url.path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { throw PrescriptionError.storeUnwritable(path: url.path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let previousLength = lseek(fd, 0, SEEK_END)
        let written = line.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == line.count, fsync(fd) == 0 else {
            let code = errno
            // Half a line (a full disk) would read as a tampered log for ever after: cut it off.
            if previousLength >= 0 { _ = ftruncate(fd, previousLength) }
            throw PrescriptionError.storeUnwritable(path: url.path, reason: StoreFiles.reason(code))
        }
    }

    /// The store's own files, and the profiles in their folder, are each a regular file or absent;
    /// anything else (a FIFO would block the reader for ever, issue 39) is refused in one
    /// sentence before any of them is opened. The audit log is checked where it is read and
    /// written (`checkKind`): a log that cannot be used must not stop the patient hearing.
    static func checkKinds(in folder: URL) throws {
        let names = [".lock", "auth.json", "attempts", "state.sealed"]
        let profiles = folder.appendingPathComponent("profiles")
        let profileNames = (try? FileManager.default.contentsOfDirectory(atPath: profiles.path)) ?? []
        for url in names.map(folder.appendingPathComponent) + profileNames.map(profiles.appendingPathComponent) {
            if let kind = NotARegularFile.at(path: url.path) { throw PrescriptionError.storeFileNotRegular(path: url.path, kind: kind) }
        }
        if let kind = NotARegularFile.at(path: profiles.path), kind != .folder {
            throw PrescriptionError.storeFileNotRegular(path: profiles.path, kind: kind)
        }
    }

    /// `url` is a regular file or absent; otherwise it is refused before it is opened.
    static func checkKind(_ url: URL) throws {
        if let kind = NotARegularFile.at(path: url.path) { throw PrescriptionError.storeFileNotRegular(path: url.path, kind: kind) }
    }

    static func withLock<T>(_ folder: URL, _ body: () throws -> T) throws -> T {
        try makeFolder(folder)
        try checkKinds(in: folder)
        let fd = open(folder.appendingPathComponent(".lock").path, O_RDWR | O_CREAT, 0o600)
        guard fd >= 0 else { throw PrescriptionError.storeUnwritable(path: folder.path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        flock(fd, LOCK_EX)
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Overwrites a file with zeros before removing it. On a journalling file system or an SSD
    /// the old blocks may survive; the contents were encrypted, so what survives is ciphertext.
    static func shred(_ url: URL) {
        if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int, size > 0 {
            let fd = open(url.path, O_WRONLY)
            if fd >= 0 {
                let zeros = [UInt8](repeating: 0, count: size)
                _ = zeros.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                fsync(fd)
                close(fd)
            }
        }
        unlink(url.path)
    }
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.dataEncodingStrategy = .base64
        return encoder
    }
}

extension JSONDecoder {
    static var sorted: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
