import Foundation
import TestSupport
import Testing
@testable import Media
@testable import Prescription

@Suite("Deleting a prescription, and reading a code's picture from memory")
struct PrescriptionDeletionTests {
    let key: AudiologistSigningKey
    let clock = clockAfterIssue()
    let folder: URL

    init() throws {
        key = try AudiologistSigningKey.generate(for: clinic)
        folder = try TemporaryFolder.make("prescription-deletion").appendingPathComponent("prescriptions")
    }

    @Test("deleting the prescription in use leaves none in use, shreds its file and is in the audit log")
    func deleteInUse() throws {
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let unlocked = try PatientStore(folder: folder, cost: cheapCost, user: "margarethe", clock: clock.function).create(passphrase: "correct horse")
        try unlocked.trust(key.publicKey)
        let fitting = try unlocked.importPrescription(text: try key.sign(try sampleDocument()))
        let later = try unlocked.importPrescription(text: try key.sign(try sampleDocument(issued: issueDate.addingTimeInterval(60))))
        try unlocked.delete(fitting.id)
        #expect(try unlocked.activePrescription() == nil)
        #expect(try unlocked.profiles().map(\.id) == [later.id])
        #expect(!FileManager.default.fileExists(atPath: unlocked.profileFile(fitting.id).path))
        #expect(try unlocked.auditEntries().contains { $0.action == "deleted a prescription" && $0.detail == "\(fitting.id) (it was in use)" })
        #expect(throws: PrescriptionError.noSuchProfile(fitting.id)) { try unlocked.delete(fitting.id) }
    }

    @Test("a code's picture received as bytes is read as the same picture file would be; damaged bytes are one sentence naming it")
    func pictureBytes() throws {
        let text = try key.sign(try sampleDocument())
        let png = try QRCode(encoding: text).pngData()
        #expect(try PrescriptionImport.text(pictureBytes: png, name: "code.png") == text)
        #expect(throws: PrescriptionError.unreadableImage(path: "half.png", reason: ImageInputError.damaged(path: "half.png").userMessage)) {
            try PrescriptionImport.text(pictureBytes: png.prefix(png.count / 2), name: "half.png")
        }
        #expect(throws: PrescriptionError.unreadableImage(path: "empty.png", reason: ImageInputError.emptyFile(path: "empty.png").userMessage)) {
            try PrescriptionImport.text(pictureBytes: Data(), name: "empty.png")
        }
    }
}
