import Foundation
import TestSupport
import Testing
@testable import Prescription

@Suite("The patient store: passphrase, lockout, profiles, audit log")
struct PatientStoreTests {
    let key: AudiologistSigningKey
    let clock = clockAfterIssue()
    let folder: URL

    init() throws {
        key = try AudiologistSigningKey.generate(for: clinic)
        folder = try TemporaryFolder.make("rx-tests").appendingPathComponent("prescriptions")
    }

    func store(policy: LockoutPolicy = .standard) -> PatientStore {
        PatientStore(folder: folder, cost: cheapCost, policy: policy, user: "margarethe", clock: clock.function)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }

    @Test("the passphrase set at first use opens the store; any other does not")
    func passphrase() throws {
        defer { cleanUp() }
        #expect(throws: PrescriptionError.storeNotCreated(path: folder.path)) { try store().unlock(passphrase: "whatever") }
        #expect(throws: PrescriptionError.passphraseTooShort(minimumCharacters: 6)) { try store().create(passphrase: "1234") }
        _ = try store().create(passphrase: "correct horse")
        #expect(throws: PrescriptionError.storeAlreadyExists(path: folder.path)) { try store().create(passphrase: "another one") }
        #expect(throws: PrescriptionError.wrongPassphrase(attemptsBeforeDelay: 2)) { try store().unlock(passphrase: "wrong horse") }
        _ = try store().unlock(passphrase: "correct horse")
        // Every file is the user's alone.
        for (path, _) in allFileBytes(under: folder) {
            let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0
            #expect(mode == 0o600, "\(path) has mode \(String(mode, radix: 8))")
        }
        #expect((try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int) == 0o700)
    }

    @Test("wrong passphrases are free three times, then delayed, then lock the store; restarting does not reset the count")
    func lockout() throws {
        defer { cleanUp() }
        _ = try store().create(passphrase: "correct horse")
        for remaining in [2, 1, 0] {
            #expect(throws: PrescriptionError.wrongPassphrase(attemptsBeforeDelay: remaining)) { try store().unlock(passphrase: "guess") }
        }
        // Third failure: 30 s to wait, even for the right passphrase, even from a new PatientStore (a restart).
        #expect(throws: PrescriptionError.tryAgainLater(seconds: 30)) { try store().unlock(passphrase: "correct horse") }
        clock.advance(seconds: 29)
        #expect(throws: PrescriptionError.tryAgainLater(seconds: 1)) { try store().unlock(passphrase: "correct horse") }
        clock.advance(seconds: 1)
        #expect(throws: PrescriptionError.wrongPassphrase(attemptsBeforeDelay: 0)) { try store().unlock(passphrase: "guess") }
        #expect(throws: PrescriptionError.tryAgainLater(seconds: 60)) { try store().unlock(passphrase: "guess") }
        clock.advance(seconds: 60)
        #expect(throws: PrescriptionError.wrongPassphrase(attemptsBeforeDelay: 0)) { try store().unlock(passphrase: "guess") }
        clock.advance(seconds: 120)
        #expect(throws: PrescriptionError.wrongPassphrase(attemptsBeforeDelay: 0)) { try store().unlock(passphrase: "guess") }
        // Sixth failure: locked for 15 minutes.
        #expect(throws: PrescriptionError.locked(seconds: 900)) { try store().unlock(passphrase: "correct horse") }
        #expect(try store().waitBeforeNextAttempt() == (seconds: 900, isLock: true))
        clock.advance(seconds: 900)
        let unlocked = try store().unlock(passphrase: "correct horse")
        // The failures, which had no key to write the log with, are told at the next unlock.
        #expect(try unlocked.auditEntries().last?.detail == "after 6 wrong passphrases")
        #expect(try store().waitBeforeNextAttempt().seconds == 0)
        #expect(throws: PrescriptionError.wrongPassphrase(attemptsBeforeDelay: 2)) { try store().unlock(passphrase: "guess") }
    }

    @Test("an imported prescription is listed, shown and used; a refused one changes nothing stored")
    func profiles() throws {
        defer { cleanUp() }
        let unlocked = try store().create(passphrase: "correct horse")
        #expect(throws: PrescriptionError.untrustedKey(fingerprint: key.publicKey.fingerprint)) {
            try unlocked.importPrescription(text: key.sign(try sampleDocument()))
        }
        #expect(try unlocked.trust(key.publicKey))
        #expect(try !unlocked.trust(key.publicKey))
        let first = try unlocked.importPrescription(text: try key.sign(try sampleDocument()))
        #expect(first.isActive)
        clock.advance(seconds: 60)
        let trialExpiry = clock.date.addingTimeInterval(7 * 86_400)
        let trial = try unlocked.importPrescription(text: try key.sign(try sampleDocument(issued: issueDate.addingTimeInterval(60), expires: trialExpiry)))
        #expect(!trial.isActive)
        #expect(throws: PrescriptionError.alreadyImported(id: first.id)) { try unlocked.importPrescription(text: key.sign(try sampleDocument())) }

        let before = allFileBytes(under: folder.appendingPathComponent("profiles")).map(\.bytes)
        var altered = try PayloadCoding.payload(fromText: try key.sign(try sampleDocument(issued: issueDate.addingTimeInterval(120))))
        altered[altered.range(of: Data(patientName.utf8))!.lowerBound + 1] ^= 0x01
        #expect(throws: PrescriptionError.altered) { try unlocked.importPrescription(text: PayloadCoding.text(fromPayload: altered)) }
        #expect(allFileBytes(under: folder.appendingPathComponent("profiles")).map(\.bytes).sorted { $0.count < $1.count }
                == before.sorted { $0.count < $1.count })
        #expect(try unlocked.activePrescription()?.document == (try sampleDocument()))

        try unlocked.use(trial.id)
        #expect(try unlocked.activePrescription()?.document.expires == trialExpiry)
        // A week later the trial is refused on load, with its reason, and cannot be used.
        clock.advance(seconds: 8 * 86_400)
        let listed = try unlocked.profiles()
        #expect(listed.map(\.id) == [first.id, trial.id])
        #expect(listed[0].prescription != nil)
        if case .failure(let error) = listed[1].verification { #expect(error == .expired(on: trialExpiry)) } else { Issue.record("the expired trial loaded") }
        #expect(throws: PrescriptionError.self) { try unlocked.activePrescription() }
        try unlocked.use(first.id)
        #expect(try unlocked.activePrescription()?.document.expires == nil)
        #expect(throws: PrescriptionError.noSuchProfile("nope")) { try unlocked.profile("nope") }
    }

    @Test("a stored prescription file edited on disk is refused on load; the others still load")
    func editedFileIsRefused() throws {
        defer { cleanUp() }
        let unlocked = try store().create(passphrase: "correct horse")
        try unlocked.trust(key.publicKey)
        let kept = try unlocked.importPrescription(text: try key.sign(try sampleDocument()))
        let edited = try unlocked.importPrescription(text: try key.sign(try sampleDocument(issued: issueDate.addingTimeInterval(60))))
        let file = folder.appendingPathComponent("profiles/\(edited.id).rx")
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count / 2] ^= 0x20
        try bytes.write(to: file)
        #expect(throws: PrescriptionError.profileRefused(id: edited.id, reason: PrescriptionError.storeDamaged(file: "profiles/\(edited.id).rx").userMessage)) {
            try unlocked.profile(edited.id)
        }
        let listed = try store().unlock(passphrase: "correct horse").profiles()
        #expect(listed.first { $0.id == kept.id }?.prescription != nil)
        #expect(listed.first { $0.id == edited.id }?.prescription == nil)
        // A profile file swapped in under another profile's name fails too (its name is sealed in).
        try Data(contentsOf: folder.appendingPathComponent("profiles/\(kept.id).rx")).write(to: file)
        #expect(throws: PrescriptionError.self) { try unlocked.profile(edited.id) }
    }

    @Test("without the passphrase no file names the patient, their thresholds or the prescription")
    func nothingReadableAtRest() throws {
        defer { cleanUp() }
        let unlocked = try store().create(passphrase: "correct horse")
        try unlocked.trust(key.publicKey)
        let text = try key.sign(try sampleDocument())
        _ = try unlocked.importPrescription(text: text)
        _ = try unlocked.profiles()
        #expect(try unlocked.auditEntries().count >= 4)
        let payload = try PayloadCoding.payload(fromText: text)
        let thresholdBytes = Data([20, 30, 40, 55, 70, 75].map { UInt8($0) }) // the left ear, as encoded
        #expect(payload.range(of: thresholdBytes) != nil)
        let needles: [(String, Data)] = [
            ("patient name", Data(patientName.utf8)), ("surname", Data("Quellenhof".utf8)),
            ("patient reference", Data("P-0042".utf8)), ("QR text", Data(text.prefix(40).utf8)), ("prefix", Data("AKRX1".utf8)),
            ("thresholds as encoded", thresholdBytes), ("thresholds as text", Data("55".utf8 + [44] + "70".utf8)),
            ("audiologist", Data("Ruiz".utf8)), ("fingerprint", Data(key.publicKey.fingerprint.utf8)),
        ]
        let files = allFileBytes(under: folder)
        #expect(files.count >= 4)
        for (path, bytes) in files {
            for (what, needle) in needles {
                #expect(bytes.range(of: needle) == nil, "\(path) contains the \(what)")
            }
            // Base64 of the encrypted lines or raw ciphertext: no JSON of a prescription in clear.
            #expect(bytes.range(of: Data("thresholds".utf8)) == nil)
        }
    }

    @Test("the audit log records who did what and when, and detects a removed, edited or cut line")
    func auditLog() throws {
        defer { cleanUp() }
        let unlocked = try store().create(passphrase: "correct horse")
        try unlocked.trust(key.publicKey)
        let profile = try unlocked.importPrescription(text: try key.sign(try sampleDocument()))
        _ = try unlocked.profile(profile.id)
        _ = try unlocked.profiles()
        let entries = try unlocked.auditEntries()
        #expect(entries.map(\.action) == ["created the patient store", "trusted an audiologist key", "imported a prescription",
                                          "showed a prescription", "listed the prescriptions"])
        #expect(entries.allSatisfy { $0.user == "margarethe" && $0.time == clock.date })
        #expect(entries.map(\.sequence) == Array(1...5))

        let log = folder.appendingPathComponent("audit.log")
        let original = try Data(contentsOf: log)
        let newline = UInt8(ascii: "\n")
        var lines: [Data] = original.split(separator: newline).map { Data($0) }
        func write(_ selected: [Data]) throws {
            var out = Data()
            for line in selected { out.append(line); out.append(newline) }
            try out.write(to: log)
        }
        // A line removed from the middle.
        try write([lines[0]] + Array(lines[2...]))
        #expect(throws: PrescriptionError.auditLogTampered(entry: 2)) { try unlocked.auditEntries() }
        // Lines swapped.
        lines.swapAt(2, 3)
        try write(lines)
        #expect(throws: PrescriptionError.auditLogTampered(entry: 3)) { try unlocked.auditEntries() }
        // The last line cut off.
        lines.swapAt(2, 3)
        try write(Array(lines.dropLast()))
        #expect(throws: PrescriptionError.auditLogTampered(entry: 5)) { try unlocked.auditEntries() }
        // One character changed.
        var edited = original
        edited[edited.count / 2] = edited[edited.count / 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        try edited.write(to: log)
        #expect(throws: PrescriptionError.self) { try unlocked.auditEntries() }
        try original.write(to: log)
        #expect(try unlocked.auditEntries().count == 5)
    }

    @Test("export gives all the patient's data readably; erasure removes every file")
    func exportAndErase() throws {
        defer { cleanUp() }
        let unlocked = try store().create(passphrase: "correct horse")
        try unlocked.trust(key.publicKey)
        _ = try unlocked.importPrescription(text: try key.sign(try sampleDocument()))
        let export = try unlocked.exportAll()
        let json = String(decoding: export, as: UTF8.self)
        #expect(json.contains(patientName))
        #expect(json.contains("\"2000\" : 55"))
        #expect(json.contains(key.publicKey.fingerprint))
        #expect(json.contains("exported all patient data"))
        try unlocked.eraseAll()
        #expect(!FileManager.default.fileExists(atPath: folder.path))
        #expect(!store().exists)
    }

    @Test("a signed debug prescription unlocks debugging mode; a fitting, or an untrusted or expired debug one, does not")
    func debugMode() throws {
        defer { cleanUp() }
        let unlocked = try store().create(passphrase: "correct horse")
        try unlocked.trust(key.publicKey)
        let fitting = try unlocked.importPrescription(text: try key.sign(try sampleDocument()))
        #expect(try unlocked.debugAuthorization() == nil)
        let stranger = try AudiologistSigningKey.generate(for: clinic)
        #expect(throws: PrescriptionError.untrustedKey(fingerprint: stranger.publicKey.fingerprint)) {
            try unlocked.importPrescription(text: stranger.sign(try sampleDocument(kind: .debug)))
        }
        let expiry = clock.date.addingTimeInterval(3600)
        let debug = try unlocked.importPrescription(text: try key.sign(try sampleDocument(kind: .debug, issued: issueDate.addingTimeInterval(5), expires: expiry)))
        #expect(!debug.isActive)
        #expect(try unlocked.debugAuthorization()?.document.kind == .debug)
        #expect(throws: PrescriptionError.self) { try unlocked.use(debug.id) }
        #expect(try unlocked.activePrescription()?.document.kind == .fitting)
        _ = fitting
        clock.advance(seconds: 3600)
        #expect(try unlocked.debugAuthorization() == nil)
    }
}
