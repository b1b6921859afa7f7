import AssistCore
import Foundation
import TestSupport
import Testing
@testable import Prescription

/// `assist rx trust`: a key decides which gains are accepted into the patient's ears, so nothing
/// is trusted unless the fingerprint was confirmed (by the patient, or `--yes` in a script).
@Suite("Trusting an audiologist's key only after the fingerprint is confirmed")
struct AudiologistTrustTests {
    @Test("refused, unanswerable or confirmed: only a yes (or --yes) trusts the key, and the fingerprint is shown first")
    func trustNeedsConfirmation() throws {
        let folder = try TemporaryFolder.make("rx-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = try AudiologistSigningKey.generate(for: clinic).publicKey
        let file = folder.appendingPathComponent("ruiz.pub")
        try key.fileData().write(to: file)
        let unlocked = try PatientStore(folder: folder.appendingPathComponent("prescriptions"), cost: cheapCost, user: "margarethe",
                                        clock: clockAfterIssue().function).create(passphrase: "correct horse")
        var told: [String] = []
        var asked: [String] = []
        func trust(confirmed: Bool, answer: Bool?) throws {
            try AudiologistTrust.run(keyFile: file, confirmed: confirmed, store: { unlocked },
                                     ask: { asked.append($0); return answer }, tell: { told.append($0) })
        }
        #expect(throws: PrescriptionError.trustDeclined) { try trust(confirmed: false, answer: false) }
        #expect(throws: PrescriptionError.trustNotConfirmed) { try trust(confirmed: false, answer: nil) }
        #expect(try unlocked.trustedKeys().isEmpty)
        #expect(told.contains("Fingerprint: \(key.fingerprint)") && asked.count == 2)
        try trust(confirmed: false, answer: true)
        #expect(told.last == "Trusted.")
        try trust(confirmed: true, answer: nil)
        #expect(told.last == "This key was already trusted." && asked.count == 3)
        #expect(try unlocked.trustedKeys() == [key])
    }
}
