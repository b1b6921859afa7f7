import Foundation
import Testing
@testable import Storage

/// The cheapest cost the format accepts, so tests stay fast; the standard cost is the same
/// code with N = 2^17.
let testKeyDerivation = BackupKeyDerivation(log2Rounds: 10, blockSize: 8, parallelism: 1)
let passphrase = "correct horse battery staple"

/// A database with changed settings and some history, and what it holds.
private func populated(_ storage: TemporaryStorage) throws -> (UserDatabase, Settings, [AnnouncedDetection]) {
    let database = try storage.open()
    let store = settingsStore(database)
    try store.set("detection.confidenceThreshold", text: "0.35")
    try store.set("detection.hazards", text: "vehicles:siren:0.9, dog:chirp:0.4")
    try store.set("speech.voice", text: "en-gb")
    try store.set("feedback.spatialAudio", text: "off")
    try store.set("units", text: "imperial")
    let history = DetectionHistory(database: database)
    let now = Date()   // history must be within the retention when it is read back
    try history.record((0..<25).map {
        detection(["person", "car", "door"][$0 % 3], 0.41 + Double($0) / 100, direction: "at \($0 % 12 + 1) o'clock",
                  meters: $0 % 4 == 0 ? nil : Double($0) * 0.37, at: now.addingTimeInterval(Double($0) * 1.25 - 60))
    }, now: now)
    return (database, try store.current(), try history.list())
}

@Suite("Backup")
struct BackupTests {
    @Test("export, wipe and import restore the settings and history exactly")
    func roundTrip() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let (database, settings, history) = try populated(storage)
        let file = storage.root.appendingPathComponent("backup.akb")
        let exported = try Backup.export(from: database, to: file, passphrase: passphrase, includeHistory: true, keyDerivation: testKeyDerivation)
        #expect(exported == BackupSummary(changedSettings: 5, historyEntries: 25))
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        try database.close()
        for url in storage.databaseFiles { try FileManager.default.removeItem(at: url) }
        let fresh = try storage.open()
        #expect(try settingsStore(fresh).current() == Settings.defaults)

        let imported = try Backup.importBackup(from: file, into: fresh, passphrase: passphrase, validator: coco)
        #expect(imported == exported)
        #expect(try settingsStore(fresh).current() == settings)
        #expect(try DetectionHistory(database: fresh).list() == history)
    }

    @Test("a backup without history replaces the settings and leaves the local history alone")
    func settingsOnly() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let (database, settings, history) = try populated(storage)
        let file = storage.root.appendingPathComponent("settings.akb")
        try Backup.export(from: database, to: file, passphrase: passphrase, includeHistory: false, keyDerivation: testKeyDerivation)
        try settingsStore(database).resetAll()
        try settingsStore(database).set("speech.pitch", text: "80")
        #expect(try Backup.importBackup(from: file, into: database, passphrase: passphrase, validator: coco).historyEntries == nil)
        #expect(try settingsStore(database).current() == settings)
        #expect(try DetectionHistory(database: database).list() == history)
    }

    @Test("a backup with any byte changed, or cut short, is refused and nothing is changed")
    func tamperedOrTruncated() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let (database, _, _) = try populated(storage)
        let file = storage.root.appendingPathComponent("backup.akb")
        try Backup.export(from: database, to: file, passphrase: passphrase, includeHistory: true, keyDerivation: testKeyDerivation)
        let original = try Data(contentsOf: file)

        // The local state differs from the backup, so an import that went through would show.
        try settingsStore(database).resetAll()
        try settingsStore(database).set("speech.pitch", text: "80")
        try DetectionHistory(database: database).clear()
        try DetectionHistory(database: database).record(detection("cup", at: Date()))
        let before = (try settingsStore(database).current(), try DetectionHistory(database: database).list())

        var damaged: [(String, Data)] = []
        // Header: version, KDF id, cost, salt; then nonce, ciphertext and tag.
        for offset in [8, 9, 10, 11, 12, 20, 29, 35, original.count / 2, original.count - 1] {
            var bytes = original
            bytes[offset] ^= 0x01
            damaged.append(("byte \(offset) flipped", bytes))
        }
        for length in [0, 7, 28, 45, original.count / 2, original.count - 1] {
            damaged.append(("cut to \(length) bytes", original.prefix(length)))
        }
        damaged.append(("a byte appended", original + Data([0])))

        for (what, bytes) in damaged {
            try bytes.write(to: file)
            do {
                try Backup.importBackup(from: file, into: database, passphrase: passphrase, validator: coco)
                Issue.record("a backup with \(what) was imported")
            } catch let error as StorageError {
                switch error {
                case .backupRejected, .backupUnsupportedVersion: break
                default: Issue.record("a backup with \(what) gave \(error)")
                }
            }
            #expect(try settingsStore(database).current() == before.0, "settings changed by a backup with \(what)")
            #expect(try DetectionHistory(database: database).list() == before.1, "history changed by a backup with \(what)")
        }
    }

    @Test("a wrong passphrase is refused, and a short one cannot make a backup")
    func passphrases() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let (database, _, _) = try populated(storage)
        let file = storage.root.appendingPathComponent("backup.akb")
        try Backup.export(from: database, to: file, passphrase: passphrase, includeHistory: false, keyDerivation: testKeyDerivation)
        guard case .backupRejected? = storageError({
            try Backup.importBackup(from: file, into: database, passphrase: "Correct horse battery staple", validator: coco)
        }) else { Issue.record("expected backupRejected"); return }
        guard case .passphraseTooShort(8)? = storageError({
            try Backup.export(from: database, to: file, passphrase: "short", includeHistory: false)
        }) else { Issue.record("expected passphraseTooShort"); return }
    }

    @Test("a backup that decrypts but holds a value not allowed here is refused whole")
    func invalidContent() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let database = try storage.open()
        try settingsStore(database).set("speech.pitch", text: "80")
        let contents = BackupContents(createdAt: referenceNow,
                                      settings: ["units": .string("imperial"), "detection.ignoredCategories": .array([.string("unicorn")])],
                                      history: [])
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let file = storage.root.appendingPathComponent("odd.akb")
        try Backup.seal(try encoder.encode(contents), passphrase: passphrase, keyDerivation: testKeyDerivation).write(to: file)
        guard case .backupInvalidContent(_, let problem)? = storageError({
            try Backup.importBackup(from: file, into: database, passphrase: passphrase, validator: coco)
        }) else { Issue.record("expected backupInvalidContent"); return }
        #expect(problem.contains("unicorn"))
        #expect(try settingsStore(database).current().speech.pitch == 80)
        #expect(try settingsStore(database).current().units == .metric)
    }

    @Test("a file that is not a backup is named as such")
    func notABackup() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let file = storage.root.appendingPathComponent("notes.txt")
        try Data("Shopping list: milk, bread, eggs".utf8).write(to: file)
        guard case .backupUnreadable(_, let reason)? = storageError({
            try Backup.importBackup(from: file, into: try storage.open(), passphrase: passphrase, validator: coco)
        }) else { Issue.record("expected backupUnreadable"); return }
        #expect(reason == "it is not an AssistiveKit backup")
    }
}
