import Foundation
import Testing
@testable import Storage

/// Issue 16: whole-number settings of 1e19 (or Int.max) trapped in validation, on the command
/// line and inside a validly encrypted backup.
@Suite("Settings values far outside their range")
struct HostileSettingsTests {
    static let cases: [(key: String, text: String)] = [
        ("detection.maximumObjects", "1e19"), ("detection.maximumObjects", "9223372036854775807"),
        ("detection.maximumObjects", "-9223372036854775809"), ("speech.volumePercent", "1e19"),
        ("speech.pitch", "1e308"), ("speech.rateWordsPerMinute", "-1e19"), ("speech.pitch", "nan"),
        ("speech.rateWordsPerMinute", "inf"), ("detection.confidenceThreshold", "1e308"),
    ]

    @Test("an absurd number is refused as out of range and nothing is stored", arguments: cases.indices)
    func commandLineValue(index: Int) throws {
        let (key, text) = Self.cases[index]
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let store = settingsStore(try storage.open())
        guard case .invalidSetting(let refusedKey, _, let given)? = storageError({ try store.set(key, text: text) }) else {
            Issue.record("expected invalidSetting for \(key) \(text)"); return
        }
        #expect(refusedKey == key)
        #expect(given != "?", "the refused value is quoted in words")
        #expect(try store.changedValues().isEmpty)
    }

    @Test("NaN is quoted in words in the refusal, not as a question mark")
    func notANumberWording() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let error = storageError { try settingsStore(try storage.open()).set("speech.pitch", text: "nan") }
        #expect(error?.userMessage == "The setting speech.pitch must be a whole number from 0 to 100; \"not a number\" is not allowed, so nothing was changed.")
    }

    @Test("the same values inside a validly encrypted backup are refused whole", arguments: [1e19, 9.223372036854775807e18, -1e19, 1e308])
    func backupValue(value: Double) throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let database = try storage.open()
        try settingsStore(database).set("speech.pitch", text: "80")
        for key in ["detection.maximumObjects", "speech.volumePercent", "speech.pitch", "speech.rateWordsPerMinute"] {
            let contents = BackupContents(createdAt: referenceNow, settings: [key: .number(value)], history: [])
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .secondsSince1970
            let file = storage.root.appendingPathComponent("absurd.akb")
            try Backup.seal(try encoder.encode(contents), passphrase: passphrase, keyDerivation: testKeyDerivation).write(to: file)
            guard case .backupInvalidContent(_, let problem)? = storageError({
                try Backup.importBackup(from: file, into: database, passphrase: passphrase, validator: coco)
            }) else { Issue.record("expected backupInvalidContent for \(key)"); continue }
            #expect(problem.contains(key))
            #expect(try settingsStore(database).current().speech.pitch == 80)
        }
    }

    @Test("a backup whose history holds escape sequences or a date in 2100 is refused whole",
          arguments: ["\u{1B}[2J\u{1B}[31mPWNED\u{1B}[0m\nfake line", "future"])
    func hostileHistory(label: String) throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let database = try storage.open()
        let time = label == "future" ? Date(timeIntervalSince1970: 4_102_444_800) : referenceNow
        let contents = BackupContents(createdAt: referenceNow, settings: [:],
                                      history: [detection(label == "future" ? "car" : label, at: time)])
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let file = storage.root.appendingPathComponent("hostile.akb")
        try Backup.seal(try encoder.encode(contents), passphrase: passphrase, keyDerivation: testKeyDerivation).write(to: file)
        guard case .backupInvalidContent(_, let problem)? = storageError({
            try Backup.importBackup(from: file, into: database, passphrase: passphrase, validator: coco)
        }) else { Issue.record("expected backupInvalidContent"); return }
        #expect(!problem.contains("\u{1B}"))
        #expect(try DetectionHistory(database: database).count() == 0)
    }
}
