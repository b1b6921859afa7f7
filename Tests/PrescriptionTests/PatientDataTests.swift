import Foundation
import TestSupport
import Hearing
import Testing
@testable import Prescription

/// Issue 17 §5: the patient's data stays in the sealed store, and one person's fitting is
/// never silently mixed with another's or swapped in behind the patient's back.
@Suite("The patient's data: another patient's prescription, a newer one, the last started fitting")
struct PatientDataTests {
    let key: AudiologistSigningKey
    let clock = clockAfterIssue()
    let folder: URL

    init() throws {
        key = try AudiologistSigningKey.generate(for: clinic)
        folder = try TemporaryFolder.make("rx-tests").appendingPathComponent("prescriptions")
    }

    func cleanUp() { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }

    func openStore() throws -> UnlockedPatientStore {
        let store = PatientStore(folder: folder, cost: cheapCost, user: "margarethe", clock: clock.function)
        let unlocked = store.exists ? try store.unlock(passphrase: "correct horse") : try store.create(passphrase: "correct horse")
        _ = try unlocked.trust(key.publicKey)
        return unlocked
    }

    func document(name: String = patientName, reference: String = "P-0042", issued: Date = issueDate) throws -> PrescriptionDocument {
        try PrescriptionDocument(patient: .init(name: name, reference: reference, birthYear: 1948), audiologist: clinic,
                                 issued: issued, audiogram: try sampleAudiogram(), rule: .nalR, maximumOutputSPL: 105,
                                 programs: [.quiet, .tv])
    }

    @Test("a prescription for another name or patient number is refused with both named, and stored only when confirmed")
    func anotherPatient() throws {
        defer { cleanUp() }
        let store = try openStore()
        let mine = try store.importPrescription(text: key.sign(try document()))
        #expect(mine.isActive)
        for other in [try document(name: "Hans Quellenhof"), try document(reference: "P-0043")] {
            let text = try key.sign(other)
            let error = #expect(throws: PrescriptionError.self) { try store.importPrescription(text: text) }
            #expect(error?.userMessage == "This prescription is for \(other.patient.spokenDescription), but this hearing aid's prescriptions are for Margarethe Quellenhof (patient number P-0042); nothing was imported (confirm to import it anyway).")
            #expect(try store.profiles().count == 1)
        }
        // Confirmed: stored, but what the patient hears does not change.
        let confirmed = try store.importPrescription(text: key.sign(try document(name: "Hans Quellenhof")), allowingAnotherPatient: true)
        #expect(!confirmed.isActive)
        #expect(try store.activePrescription()?.document.patient.name == patientName)
        let log = try store.auditEntries().map(\.action)
        #expect(log.filter { $0 == "refused a prescription for another patient" }.count == 2)
        #expect(log.contains("confirmed a prescription for another patient"))
        // The patient's own next prescription is still welcome: the comparison is with the one in use.
        #expect(throws: Never.self) { try store.importPrescription(text: key.sign(try document(issued: issueDate.addingTimeInterval(60)))) }
    }

    @Test("the same person is recognised despite case, spacing and a missing patient number")
    func samePerson() {
        let stored = PrescriptionDocument.Patient(name: "Margarethe  Quellenhof", reference: "P-0042", birthYear: nil)
        #expect(stored.isSamePerson(as: .init(name: "margarethe quellenhof", reference: "p-0042", birthYear: nil)))
        #expect(stored.isSamePerson(as: .init(name: "Margarethe Quellenhof", reference: "", birthYear: nil)))
        #expect(!stored.isSamePerson(as: .init(name: "Margarethe Quellenhof", reference: "P-0043", birthYear: nil)))
        #expect(!stored.isSamePerson(as: .init(name: "Margarete Quellenhof", reference: "P-0042", birthYear: nil)))
    }

    @Test("a newer prescription for the same patient is stored but not used until chosen, or used at once when asked")
    func newerPrescription() throws {
        defer { cleanUp() }
        let store = try openStore()
        let first = try store.importPrescription(text: key.sign(try document()))
        clock.advance(seconds: 86_400)
        let newer = try store.importPrescription(text: key.sign(try document(issued: issueDate.addingTimeInterval(86_400))))
        #expect(!newer.isActive)
        #expect(try store.readState().activeProfile == first.id)
        try store.use(newer.id)
        #expect(try store.readState().activeProfile == newer.id)
        let newest = try store.importPrescription(text: key.sign(try document(issued: issueDate.addingTimeInterval(86_460))),
                                                  makeActive: true)
        #expect(newest.isActive)
        #expect(try store.readState().activeProfile == newest.id)
        #expect(try store.auditEntries().filter { $0.action == "chose the prescription in use" }.map(\.detail) == [newer.id, newest.id])
    }

    @Test("the last started fitting is kept sealed in the store: ramp-in only for a new fitting, nothing in clear, gone after erase")
    func lastStartedFitting() throws {
        defer { cleanUp() }
        let store = try openStore()
        _ = try store.importPrescription(text: key.sign(try document()))
        let fitting = try Hearing.Prescription(audiogram: try sampleAudiogram())
        #expect(store.startupRampSeconds(for: fitting) == 2)
        try store.recordStarted(fitting)
        #expect(store.startupRampSeconds(for: fitting) < 0.1)
        // A reopened store remembers it; another fitting ramps in again.
        #expect(try openStore().startupRampSeconds(for: fitting) < 0.1)
        let other = try Hearing.Prescription(audiogram: Audiogram(left: try .flat(40), right: try .flat(50)))
        #expect(store.startupRampSeconds(for: other) == 2)
        // Nothing in any file under the store reads as the patient or their fitting.
        let digest = try UnlockedPatientStore.digest(fitting)
        let fittingJSON = try JSONEncoder().encode(fitting)
        for (path, bytes) in allFileBytes(under: folder.deletingLastPathComponent()) {
            for secret in [Data(patientName.utf8), Data("P-0042".utf8), digest, Data("thresholds".utf8), fittingJSON.prefix(24)] {
                #expect(bytes.range(of: secret) == nil, "\(path) holds \(String(decoding: secret, as: UTF8.self))")
            }
        }
        try store.eraseAll()
        #expect(allFileBytes(under: folder.deletingLastPathComponent()).isEmpty)
    }
}
