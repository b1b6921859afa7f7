import AssistCore
import Crypto
import _CryptoExtras
import Foundation
import GRDB

/// How hard the backup's passphrase is to guess offline: scrypt's cost parameters, stored in
/// the file's header so a backup opens with the parameters it was made with.
public struct BackupKeyDerivation: Sendable, Equatable {
    /// log2 of scrypt's N (rounds).
    public var log2Rounds: UInt8
    /// scrypt's r.
    public var blockSize: UInt8
    /// scrypt's p.
    public var parallelism: UInt8

    public init(log2Rounds: UInt8, blockSize: UInt8, parallelism: UInt8) {
        self.log2Rounds = log2Rounds
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// N = 2^17, r = 8, p = 1: 128 MiB and about half a second, the interactive-login cost
    /// recommended by OWASP's password storage guidance for scrypt.
    public static let standard = BackupKeyDerivation(log2Rounds: 17, blockSize: 8, parallelism: 1)

    /// Memory scrypt needs: 128 · r · N bytes.
    var memoryBytes: Int { 128 * Int(blockSize) * (1 << Int(log2Rounds)) }

    /// Refuses headers that would make opening a file cost more than 1 GiB or take minutes:
    /// a hostile file must not be able to exhaust the machine before its tag is even checked.
    var isReasonable: Bool {
        (10...20).contains(log2Rounds) && (1...16).contains(blockSize) && (1...4).contains(parallelism) && memoryBytes <= 1 << 30
    }
}

/// What a backup holds. Settings are the changed values only, by key, so a backup restores
/// "defaults plus these changes" even when a later version changes a default.
public struct BackupContents: Codable, Equatable, Sendable {
    public var createdAt: Date
    public var settings: [String: JSONValue]
    /// Present only when history was asked for.
    public var history: [AnnouncedDetection]?
}

/// What an export or import did.
public struct BackupSummary: Sendable, Equatable {
    public var changedSettings: Int
    public var historyEntries: Int?
}

/// One encrypted, integrity-checked file of settings (and optionally history): the offline
/// replacement for the design documents' cloud backup.
///
/// Layout (version 1), every number one byte:
///
///     "AKBACKUP"  version=1  kdf=1 (scrypt)  log2N  r  p  salt(16)  nonce(12)  ciphertext  tag(16)
///
/// The key is scrypt(passphrase, salt); the cipher is AES-256-GCM over the JSON of
/// `BackupContents`, with the whole header as authenticated data. So a changed byte anywhere —
/// header, ciphertext or tag — or a truncated file fails the tag check, and import then changes
/// nothing.
public enum Backup {
    static let magic = Data("AKBACKUP".utf8)
    static let formatVersion: UInt8 = 1
    static let scryptIdentifier: UInt8 = 1
    static let saltBytes = 16
    static let headerBytes = 8 + 1 + 1 + 3 + 16
    /// Long enough that scrypt's cost is not wasted on a trivially guessed phrase.
    public static let minimumPassphraseCharacters = 8

    /// Writes the user's changed settings (and history, if `includeHistory`) to `file`,
    /// readable by the user alone, replacing it atomically.
    @discardableResult
    public static func export(from database: UserDatabase, to file: URL, passphrase: String, includeHistory: Bool,
                              keyDerivation: BackupKeyDerivation = .standard, now: Date = Date()) throws -> BackupSummary {
        guard passphrase.count >= minimumPassphraseCharacters else {
            throw StorageError.passphraseTooShort(minimumCharacters: minimumPassphraseCharacters)
        }
        let settings = try SettingsStore(database: database, validator: SettingsValidator(knownCategories: [])).changedValues()
        let history = includeHistory ? try DetectionHistory(database: database).list() : nil
        let contents = BackupContents(createdAt: now, settings: settings, history: history)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .secondsSince1970
        let sealed = try seal(try encoder.encode(contents), passphrase: passphrase, keyDerivation: keyDerivation)
        // 0600 from the first byte (a killed export left 0644 temporary files before), and all
        // or nothing: a failure names what was not saved ("The folder … does not exist, so …").
        try PrivateFile.write(sealed, to: file)
        return BackupSummary(changedSettings: settings.count, historyEntries: history?.count)
    }

    /// Reads `file` and, only if it decrypts, passes its integrity check and every value in it
    /// validates, replaces the settings (and the history, when the backup has one) in one
    /// transaction. Any failure leaves the database exactly as it was.
    @discardableResult
    public static func importBackup(from file: URL, into database: UserDatabase, passphrase: String,
                                    validator: SettingsValidator) throws -> BackupSummary {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw StorageError.backupUnreadable(path: file.path, reason: "it does not exist or is not readable")
        }
        let plaintext = try open(data, passphrase: passphrase, path: file.path)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let contents = try? decoder.decode(BackupContents.self, from: plaintext) else {
            throw StorageError.backupInvalidContent(path: file.path, problem: "its contents are not a settings backup")
        }
        // Validate everything before touching the database.
        var rows: [SettingRow] = []
        var settings = Settings.defaults
        do {
            for (key, value) in contents.settings.sorted(by: { $0.key < $1.key }) {
                let definition = try SettingsSchema.definition(for: key)
                let normalized = try definition.validate(value, validator: validator)
                try definition.write(&settings, normalized)
                rows.append(SettingRow(key: definition.key, value: normalized.jsonText, updatedAt: contents.createdAt.timeIntervalSince1970))
            }
            try SettingsSchema.checkConsistency(settings)
        } catch let error as StorageError {
            throw StorageError.backupInvalidContent(path: file.path, problem: error.userMessage)
        }
        let history = DetectionHistory(database: database)
        let detectionRows: [DetectionRow]?
        do {
            detectionRows = try contents.history?.map { try history.seal($0.validated()) }
        } catch let error as StorageError {
            throw StorageError.backupInvalidContent(path: file.path, problem: error.userMessage)
        }
        let settingRows = rows
        try database.write { db in
            try SettingRow.deleteAll(db)
            for row in settingRows { try row.insert(db) }
            if let detectionRows {
                try DetectionRow.deleteAll(db)
                for row in detectionRows { try row.insert(db) }
            }
        }
        return BackupSummary(changedSettings: rows.count, historyEntries: detectionRows?.count)
    }

    static func seal(_ plaintext: Data, passphrase: String, keyDerivation: BackupKeyDerivation) throws -> Data {
        var salt = Data(count: saltBytes)
        salt.withUnsafeMutableBytes { buffer in
            var generator = SystemRandomNumberGenerator()
            for index in buffer.indices { buffer[index] = UInt8.random(in: 0...255, using: &generator) }
        }
        var header = magic
        header.append(contentsOf: [formatVersion, scryptIdentifier, keyDerivation.log2Rounds, keyDerivation.blockSize, keyDerivation.parallelism])
        header.append(salt)
        let key = try deriveKey(passphrase: passphrase, salt: salt, keyDerivation: keyDerivation)
        let box = try AES.GCM.seal(plaintext, using: key, authenticating: header)
        return header + box.combined!
    }

    static func open(_ data: Data, passphrase: String, path: String) throws -> Data {
        let bytes = [UInt8](data)
        guard bytes.count >= 8, Data(bytes[0..<8]) == magic else {
            // Too short to hold even the magic (a truncated file) or another kind of file.
            throw bytes.count < 8 ? StorageError.backupRejected(path: path)
                : StorageError.backupUnreadable(path: path, reason: "it is not an AssistiveKit backup")
        }
        guard bytes.count >= headerBytes + 12 + 16 else { throw StorageError.backupRejected(path: path) }
        guard bytes[8] == formatVersion else { throw StorageError.backupUnsupportedVersion(path: path, version: Int(bytes[8])) }
        let keyDerivation = BackupKeyDerivation(log2Rounds: bytes[10], blockSize: bytes[11], parallelism: bytes[12])
        guard bytes[9] == scryptIdentifier, keyDerivation.isReasonable else { throw StorageError.backupRejected(path: path) }
        let header = Data(bytes[0..<headerBytes])
        let salt = Data(bytes[13..<headerBytes])
        do {
            let key = try deriveKey(passphrase: passphrase, salt: salt, keyDerivation: keyDerivation)
            let box = try AES.GCM.SealedBox(combined: Data(bytes[headerBytes...]))
            return try AES.GCM.open(box, using: key, authenticating: header)
        } catch {
            throw StorageError.backupRejected(path: path)
        }
    }

    private static func deriveKey(passphrase: String, salt: Data, keyDerivation: BackupKeyDerivation) throws -> SymmetricKey {
        try KDF.Scrypt.deriveKey(from: Data(passphrase.utf8), salt: salt, outputByteCount: 32,
                                 rounds: 1 << Int(keyDerivation.log2Rounds), blockSize: Int(keyDerivation.blockSize),
                                 parallelism: Int(keyDerivation.parallelism))
    }
}
