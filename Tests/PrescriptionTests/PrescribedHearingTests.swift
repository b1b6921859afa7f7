import Foundation
import TestSupport
import Hearing
import Testing
@testable import Prescription

@Suite("Hearing through the stored prescription; the debugging mode")
struct PrescribedHearingTests {
    let key: AudiologistSigningKey
    let clock = clockAfterIssue()
    let folder: URL

    init() throws {
        key = try AudiologistSigningKey.generate(for: clinic)
        folder = try TemporaryFolder.make("rx-tests").appendingPathComponent("prescriptions")
    }

    func unlockedStore() throws -> UnlockedPatientStore {
        let unlocked = try PatientStore(folder: folder, cost: cheapCost, user: "margarethe", clock: clock.function)
            .create(passphrase: "correct horse")
        try unlocked.trust(key.publicKey)
        return unlocked
    }

    func cleanUp() { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }

    @Test("the prescription in use gives its fitting and only its programs, by name or number")
    func programsOfThePrescription() throws {
        defer { cleanUp() }
        let unlocked = try unlockedStore()
        #expect(throws: PrescriptionError.noPrescriptionInUse) { try unlocked.prescribedHearing() }
        let document = try sampleDocument()
        _ = try unlocked.importPrescription(text: try key.sign(document))
        let hearing = try unlocked.prescribedHearing()
        #expect(try hearing.fitting() == document.fitting())
        #expect(hearing.programs == [.quiet, .conversationInNoise, .tv])
        #expect(try hearing.program(named: nil) == .quiet)
        #expect(try hearing.program(named: "restaurant") == .conversationInNoise)
        #expect(try hearing.program(named: "3") == .tv)
        #expect(throws: PrescriptionError.programNotPrescribed(program: "music", prescribed: ["quiet", "conversation-in-noise", "tv"])) {
            try hearing.program(named: "music")
        }
        #expect(throws: PrescriptionError.programNotPrescribed(program: "number 4", prescribed: ["quiet", "conversation-in-noise", "tv"])) {
            try hearing.program(named: "4")
        }
    }

    @Test("a prescription in use that was edited on disk is refused when the hearing assistant loads it")
    func editedPrescriptionIsNotHeard() throws {
        defer { cleanUp() }
        let unlocked = try unlockedStore()
        let stored = try unlocked.importPrescription(text: try key.sign(try sampleDocument()))
        let file = folder.appendingPathComponent("profiles/\(stored.id).rx")
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 20] ^= 0x01
        try bytes.write(to: file)
        #expect(throws: PrescriptionError.profileRefused(id: stored.id, reason: PrescriptionError.storeDamaged(file: "profiles/\(stored.id).rx").userMessage)) {
            try unlocked.prescribedHearing()
        }
    }

    @Test("reference thresholds can be changed only in the debugging mode, and the fitting follows the change")
    func debuggingMode() throws {
        defer { cleanUp() }
        let unlocked = try unlockedStore()
        _ = try unlocked.importPrescription(text: try key.sign(try sampleDocument()))
        let change = try ReferenceThresholdChange(parsing: "left:2000=80")
        #expect(change == (try ReferenceThresholdChange(ear: .left, frequencyHz: 2000, thresholdHL: 80)))
        for bad in ["left:2100=60", "middle:2000=60", "left:2000=130", "left 2000 60"] {
            #expect(throws: PrescriptionError.invalidThresholdChange(bad)) { try ReferenceThresholdChange(parsing: bad) }
        }
        // A fitting prescription does not unlock it.
        #expect(throws: PrescriptionError.debuggingModeLocked) { try unlocked.debuggingMode() }
        _ = try unlocked.importPrescription(text: try key.sign(try sampleDocument(kind: .debug, issued: issueDate.addingTimeInterval(5))))
        let mode = try unlocked.debuggingMode()
        let hearing = try unlocked.prescribedHearing()
        let changed = try hearing.changingReferenceThresholds([change], in: mode)
        #expect(changed.audiogram.left.thresholdsHL[2000] == 80)
        #expect(changed.audiogram.right == hearing.audiogram.right)
        // 55 → 80 dB HL at 2 kHz: NAL-R gives more gain there.
        let before = try hearing.fitting().left.bands, after = try changed.fitting().left.bands
        let index = before.firstIndex { $0.frequencyHz >= 2000 }!
        #expect(after[index].mediumGain > before[index].mediumGain + 5)
        try unlocked.recordThresholdChanges([change], in: mode)
        #expect(try unlocked.auditEntries().last?.action == "changed reference thresholds in debugging mode")
        // The change is logged like everything else: encrypted, so no file shows it without the key.
        for (path, bytes) in allFileBytes(under: folder) {
            for needle in ["80 dB HL", "2000 Hz", "debugging", patientName] {
                #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(path) contains \(needle)")
            }
        }
    }
}
