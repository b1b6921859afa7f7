import Foundation
import TestSupport
import Synchronization
import Testing
@testable import Prescription

/// Issue 16: the lockout count was plain JSON (setting it to 0 lifted a lock); an import that
/// failed half-way left the prescription listed without its audit entry; listing and hearing
/// failed when the audit log could not be written.
@Suite("The patient store under tampering and failed writes")
struct StoreFaultTests {
    let key: AudiologistSigningKey
    let clock = clockAfterIssue()
    let folder: URL
    /// What the store said it could not record, in a box the store's closure can share.
    final class Told: Sendable {
        let sentences = Mutex<[String]>([])
    }
    let unrecorded = Told()

    init() throws {
        key = try AudiologistSigningKey.generate(for: clinic)
        folder = try TemporaryFolder.make("rx-tests").appendingPathComponent("prescriptions")
    }

    func store() -> PatientStore {
        PatientStore(folder: folder, cost: cheapCost, policy: .standard, user: "margarethe", clock: clock.function,
                     unrecordedAccess: { [unrecorded] sentence in unrecorded.sentences.withLock { $0.append(sentence) } })
    }

    func cleanUp() { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }

    @Test("editing the attempt count to 0 does not lift a lock; it counts as a lock from then")
    func editedCount() throws {
        defer { cleanUp() }
        _ = try store().create(passphrase: "correct horse")
        for _ in 0..<6 { _ = try? store().unlock(passphrase: "guess"); clock.advance(seconds: 1000) }
        clock.advance(seconds: -1000)
        #expect(try store().waitBeforeNextAttempt().isLock)
        // The count is not in auth.json any more, and the attempts file is authenticated.
        let auth = try String(contentsOf: folder.appendingPathComponent("auth.json"), encoding: .utf8)
        #expect(auth.contains("\"consecutiveFailures\":0"))
        let attempts = folder.appendingPathComponent("attempts")
        var bytes = try Data(contentsOf: attempts)
        for index in 1..<9 { bytes[index] = 0 }
        try bytes.write(to: attempts)
        #expect(try store().waitBeforeNextAttempt() == (seconds: 900, isLock: true))
        #expect(throws: PrescriptionError.locked(seconds: 900)) { try store().unlock(passphrase: "correct horse") }
        clock.advance(seconds: 900)
        _ = try store().unlock(passphrase: "correct horse")
    }

    @Test("an import whose audit entry cannot be written leaves nothing behind, and can be done again")
    func failedImport() throws {
        defer { cleanUp() }
        let unlocked = try store().create(passphrase: "correct horse")
        try unlocked.trust(key.publicKey)
        let text = try key.sign(try sampleDocument())
        let audit = folder.appendingPathComponent("audit.log"), kept = folder.appendingPathComponent("audit.kept")
        try FileManager.default.moveItem(at: audit, to: kept)
        try FileManager.default.createDirectory(at: audit, withIntermediateDirectories: false)   // writing it fails
        #expect(throws: (any Error).self) { try unlocked.importPrescription(text: text) }
        try FileManager.default.removeItem(at: audit)
        try FileManager.default.moveItem(at: kept, to: audit)
        #expect(try unlocked.profiles().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("profiles").path).isEmpty)
        let imported = try unlocked.importPrescription(text: text)
        #expect(imported.isActive)
        #expect(try unlocked.auditEntries().last?.action == "imported a prescription")
    }

    @Test("unlocking and listing work when the audit log cannot be written, and the user is told what was not recorded")
    func readingNeedsNoWriting() throws {
        defer { cleanUp() }
        let unlocked = try store().create(passphrase: "correct horse")
        try unlocked.trust(key.publicKey)
        _ = try unlocked.importPrescription(text: try key.sign(try sampleDocument()))
        let audit = folder.appendingPathComponent("audit.log")
        try FileManager.default.removeItem(at: audit)
        try FileManager.default.createDirectory(at: audit, withIntermediateDirectories: false)
        let reopened = try store().unlock(passphrase: "correct horse")
        #expect(try reopened.profiles().count == 1)
        #expect(try reopened.activePrescription() != nil)
        let told = unrecorded.sentences.withLock { $0 }
        #expect(told.count >= 2 && told.allSatisfy { $0.contains("could not be written to the prescription audit log") })
    }
}
