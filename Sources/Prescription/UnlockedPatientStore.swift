import AssistCore
import Crypto
import Foundation

/// A stored prescription as loaded: verified again right now, or refused with the reason.
public struct StoredProfile: Sendable {
    public let id: String
    public let importedAt: Date
    public let isActive: Bool
    public let verification: Result<VerifiedPrescription, PrescriptionError>

    public var prescription: VerifiedPrescription? { try? verification.get() }
}

/// The patient store after the passphrase was accepted. Every reading and every change is
/// written to the audit log. No method edits a prescription: they can only be imported whole
/// (and must verify), chosen, exported or erased with everything else.
public struct UnlockedPatientStore: Sendable {
    let store: PatientStore
    let keys: StoreKeys

    init(store: PatientStore, keys: StoreKeys) {
        self.store = store
        self.keys = keys
    }

    var folder: URL { store.folder }
    var stateFile: URL { folder.appendingPathComponent("state.sealed") }
    var auditFile: URL { folder.appendingPathComponent("audit.log") }
    var profilesFolder: URL { folder.appendingPathComponent("profiles") }

    // MARK: Trust

    public func trustedKeys() throws -> [AudiologistPublicKey] { try readState().trustedKeys }

    /// Adds an audiologist's key; returns false when it was already trusted.
    @discardableResult
    public func trust(_ key: AudiologistPublicKey) throws -> Bool {
        try StoreFiles.withLock(folder) {
            var state = try readState()
            guard !state.trustedKeys.contains(where: { $0.rawKey == key.rawKey }) else { return false }
            state.trustedKeys.append(key)
            try writeState(state)
            try audit("trusted an audiologist key", detail: "\(key.fingerprint) of \(key.audiologist.name) (\(key.audiologist.identifier))")
            return true
        }
    }

    public func verifier() throws -> PrescriptionVerifier {
        PrescriptionVerifier(trustedKeys: try trustedKeys(), now: store.clock())
    }

    // MARK: Profiles

    /// Verifies `text` (from a QR code) and stores it. A refused prescription changes nothing
    /// stored; the refusal itself is written to the audit log.
    ///
    /// A prescription for another patient than the one in use (see `Patient.isSamePerson` and
    /// `storedPatients`) is refused with both named, unless `allowingAnotherPatient` (the user confirmed): one
    /// person's fitting heard through by another is the mistake this store exists to prevent.
    /// The first fitting stored becomes the one in use; later ones wait for `use` (or `makeActive`).
    public func importPrescription(text: String, allowingAnotherPatient: Bool = false,
                                   makeActive: Bool = false) throws -> StoredProfile {
        try StoreFiles.withLock(folder) {
            let verified: VerifiedPrescription
            do {
                verified = try verifier().verify(text: text)
            } catch let error as PrescriptionError {
                try audit("refused a prescription", detail: error.refusalReason)
                throw error
            }
            for existing in try profileIDs() where (try? readProfileRecord(existing))?.text == verified.text {
                throw PrescriptionError.alreadyImported(id: existing)
            }
            let patient = verified.document.patient
            let others = storedPatients().filter { !$0.isSamePerson(as: patient) }
            if !others.isEmpty {
                let stored = others.map(\.spokenDescription).joined(separator: " and ")
                guard allowingAnotherPatient else {
                    try audit("refused a prescription for another patient", detail: "\(patient.spokenDescription), store holds \(stored)")
                    throw PrescriptionError.differentPatient(imported: patient.spokenDescription, stored: stored)
                }
                try audit("confirmed a prescription for another patient", detail: "\(patient.spokenDescription), store holds \(stored)")
            }
            let id = Sealing.randomBytes(4).map { String(format: "%02x", $0) }.joined()
            let record = ProfileRecord(id: id, importedAt: store.clock(), text: verified.text)
            let sealed = try Sealing.seal(try JSONEncoder.sorted.encode(record), key: keys.profiles, context: "profile \(id)")
            // All or nothing (issue 16: on a full disk the profile stayed while the state and the
            // audit log did not follow): the profile file, then the audit entry and the state in
            // one state write; any failure removes the profile file again.
            try StoreFiles.write(sealed, to: profileFile(id))
            var state: StoreState
            do {
                state = try readState()
                if verified.document.kind == .fitting, state.activeProfile == nil || makeActive { state.activeProfile = id }
                let document = verified.document
                try audit("imported a prescription", detail: "\(id): \(document.kind == .debug ? "debug" : "fitting") by \(document.audiologist.name) issued \(PrescriptionError.day(document.issued))",
                          changing: state)
            } catch {
                StoreFiles.shred(profileFile(id))
                throw error
            }
            if makeActive, state.activeProfile == id { try audit("chose the prescription in use", detail: id) }
            return StoredProfile(id: id, importedAt: record.importedAt, isActive: state.activeProfile == id, verification: .success(verified))
        }
    }

    /// Whose hearing aid this is: the patient of the prescription in use; before one is in use,
    /// the patients the stored prescriptions name (each once). Read from the signed text whether
    /// or not it still verifies (an expired prescription still says whose it was).
    func storedPatients() -> [PrescriptionDocument.Patient] {
        if let active = try? readState().activeProfile, let text = try? readProfileRecord(active).text,
           let document = try? PayloadCoding.decode(PayloadCoding.payload(fromText: text)).document {
            return [document.patient]
        }
        var patients: [PrescriptionDocument.Patient] = []
        for id in (try? profileIDs()) ?? [] {
            guard let text = try? readProfileRecord(id).text,
                  let document = try? PayloadCoding.decode(PayloadCoding.payload(fromText: text)).document else { continue }
            if !patients.contains(where: { $0.isSamePerson(as: document.patient) }) { patients.append(document.patient) }
        }
        return patients
    }

    /// Every stored prescription, each verified again now (signature, trust, expiry). A file
    /// changed on disk is listed as refused, never used.
    public func profiles() throws -> [StoredProfile] {
        let state = try readState()
        let verifier = PrescriptionVerifier(trustedKeys: state.trustedKeys, now: store.clock())
        let result = try profileIDs().map { id in load(id, verifier: verifier, active: state.activeProfile) }
            .sorted { ($0.importedAt, $0.id) < ($1.importedAt, $1.id) }
        auditAccess("listed the prescriptions")
        return result
    }

    /// One stored prescription, verified; throws its refusal.
    public func profile(_ id: String) throws -> VerifiedPrescription {
        let state = try readState()
        guard try profileIDs().contains(id) else { throw PrescriptionError.noSuchProfile(id) }
        let loaded = load(id, verifier: PrescriptionVerifier(trustedKeys: state.trustedKeys, now: store.clock()), active: state.activeProfile)
        switch loaded.verification {
        case .success(let verified):
            auditAccess("showed a prescription", detail: id)
            return verified
        case .failure(let error):
            auditAccess("refused a stored prescription", detail: "\(id): \(error.refusalReason)")
            throw PrescriptionError.profileRefused(id: id, reason: error.refusalReason)
        }
    }

    /// Makes `id` the prescription the hearing assistant uses; it must verify and be a fitting.
    public func use(_ id: String) throws {
        let verified = try profile(id)
        guard verified.document.kind == .fitting else {
            throw PrescriptionError.invalidField(field: "kind", reason: "is debug; a debug prescription unlocks debugging, it is not a fitting to hear through")
        }
        try StoreFiles.withLock(folder) {
            var state = try readState()
            state.activeProfile = id
            try writeState(state)
            try audit("chose the prescription in use", detail: id)
        }
    }

    /// Deletes one stored prescription (the web app's Prescriptions page, after the patient
    /// confirmed). Deleting the one in use leaves none in use: the hearing assistant then says
    /// so rather than silently picking another fitting. Written to the audit log.
    public func delete(_ id: String) throws {
        try StoreFiles.withLock(folder) {
            guard try profileIDs().contains(id) else { throw PrescriptionError.noSuchProfile(id) }
            var state = try readState()
            let wasInUse = state.activeProfile == id
            if wasInUse { state.activeProfile = nil }
            try audit("deleted a prescription", detail: id + (wasInUse ? " (it was in use)" : ""), changing: state)
            StoreFiles.shred(profileFile(id))
        }
    }

    /// The stored prescription `id`, or the one in use when `id` is nil, verified now.
    public func prescription(_ id: String?) throws -> VerifiedPrescription {
        if let id { return try profile(id) }
        guard let active = try activePrescription() else { throw PrescriptionError.noneInUse }
        return active
    }

    /// The prescription in use, verified now; nil when none was chosen.
    public func activePrescription() throws -> VerifiedPrescription? {
        guard let id = try readState().activeProfile else { return nil }
        return try profile(id)
    }

    /// The debug prescription that unlocks the debugging mode (reference thresholds may be
    /// changed), when a valid, trusted, unexpired one is stored; nil otherwise.
    public func debugAuthorization() throws -> VerifiedPrescription? {
        let state = try readState()
        let verifier = PrescriptionVerifier(trustedKeys: state.trustedKeys, now: store.clock())
        let found = try profileIDs().compactMap { load($0, verifier: verifier, active: nil).prescription }
            .filter { $0.document.kind == .debug }
            .max { $0.document.issued < $1.document.issued }
        if let found { auditAccess("entered debugging mode", detail: "authorised by \(found.document.audiologist.name)") }
        return found
    }

    // MARK: Audit log, export, erasure

    /// The whole audit log, its chain checked; throws at the first broken link.
    public func auditEntries() throws -> [AuditEntry] {
        let state = try readState()
        return try AuditLog.read(auditFile, key: keys.audit, headCount: state.auditCount, head: state.auditHead).entries
    }

    /// All of the patient's data in readable JSON: their prescriptions (decoded, and the signed
    /// text), the trusted keys and the audit log. The export is logged first, so it lists itself.
    public func exportAll() throws -> Data {
        try auditLocked("exported all patient data")
        let state = try readState()
        let verifier = PrescriptionVerifier(trustedKeys: state.trustedKeys, now: store.clock())
        let profiles = try profileIDs().map { id -> PatientDataExport.Profile in
            let loaded = load(id, verifier: verifier, active: state.activeProfile)
            let text = try? readProfileRecord(id).text
            let decoded = text.flatMap { try? PayloadCoding.decode(PayloadCoding.payload(fromText: $0)).document }
            var status = "valid"
            if case .failure(let error) = loaded.verification { status = "refused: \(error.refusalReason)" }
            return .init(id: id, importedAt: loaded.importedAt, inUse: loaded.isActive, status: status,
                         prescription: decoded.map(PatientDataExport.Prescription.init), signedText: text)
        }
        let export = PatientDataExport(exportedAt: store.clock(), user: store.user,
                                       trustedKeys: state.trustedKeys.map { .init(fingerprint: $0.fingerprint, name: $0.audiologist.name, identifier: $0.audiologist.identifier) },
                                       profiles: profiles, auditLog: try auditEntries())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(export)
    }

    /// Removes every file of the store, the passphrase record and the audit log included.
    public func eraseAll() throws {
        try StoreFiles.withLock(folder) {
            for id in (try? profileIDs()) ?? [] { StoreFiles.shred(profileFile(id)) }
            for file in [stateFile, auditFile, store.authFile, store.attemptsFile] { StoreFiles.shred(file) }
            try? FileManager.default.removeItem(at: profilesFolder)
        }
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: Files

    struct ProfileRecord: Codable {
        var id: String
        var importedAt: Date
        var text: String
    }

    func profileFile(_ id: String) -> URL { profilesFolder.appendingPathComponent("\(id).rx") }

    func profileIDs() throws -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: profilesFolder.path)) ?? []
        return names.filter { $0.hasSuffix(".rx") && !$0.hasPrefix(".") }.map { String($0.dropLast(3)) }.sorted()
    }

    func readProfileRecord(_ id: String) throws -> ProfileRecord {
        guard let sealed = FileManager.default.contents(atPath: profileFile(id).path),
              let plaintext = Sealing.open(sealed, key: keys.profiles, context: "profile \(id)"),
              let record = try? JSONDecoder.sorted.decode(ProfileRecord.self, from: plaintext), record.id == id else {
            throw PrescriptionError.storeDamaged(file: "profiles/\(id).rx")
        }
        return record
    }

    private func load(_ id: String, verifier: PrescriptionVerifier, active: String?) -> StoredProfile {
        let record: ProfileRecord
        do { record = try readProfileRecord(id) } catch {
            return StoredProfile(id: id, importedAt: .distantPast, isActive: active == id,
                                 verification: .failure(.storeDamaged(file: "profiles/\(id).rx")))
        }
        do {
            let verified = try verifier.verify(text: record.text)
            return StoredProfile(id: id, importedAt: record.importedAt, isActive: active == id, verification: .success(verified))
        } catch let error as PrescriptionError {
            return StoredProfile(id: id, importedAt: record.importedAt, isActive: active == id, verification: .failure(error))
        } catch {
            return StoredProfile(id: id, importedAt: record.importedAt, isActive: active == id,
                                 verification: .failure(.fittingRejected(reason: userMessage(for: error))))
        }
    }

    func readState() throws -> StoreState {
        guard let sealed = FileManager.default.contents(atPath: stateFile.path),
              let plaintext = Sealing.open(sealed, key: keys.state, context: "state"),
              let state = try? JSONDecoder.sorted.decode(StoreState.self, from: plaintext) else {
            throw PrescriptionError.storeDamaged(file: "state.sealed")
        }
        return state
    }

    func writeState(_ state: StoreState) throws {
        try StoreFiles.write(try Sealing.seal(try JSONEncoder.sorted.encode(state), key: keys.state, context: "state"), to: stateFile)
    }

    func auditLocked(_ action: String, detail: String? = nil) throws {
        try StoreFiles.withLock(folder) { try audit(action, detail: detail) }
    }

    /// Appends an entry (the caller holds the folder lock) after checking the chain so far, then moves the head.
    /// Records an access that changes nothing. When the audit log cannot be written (a full
    /// disk), the access still goes ahead and `PatientStore.unrecordedAccess` is told.
    /// `holdingLock`: the caller already holds the store's lock (flock is per open file, so
    /// taking it again from this process would wait for ever).
    func auditAccess(_ action: String, detail: String? = nil, holdingLock: Bool = false) {
        do {
            if holdingLock { try audit(action, detail: detail) } else { try auditLocked(action, detail: detail) }
        } catch {
            store.unrecordedAccess("This access (\(action)) could not be written to the prescription audit log: \(userMessage(for: error))")
        }
    }

    /// Appends an audit entry and writes `state` (or the current state) with the new log head,
    /// in that order: an entry past the head is genuine (see `AuditLog.read`), a head past the
    /// log would be a cut log.
    func audit(_ action: String, detail: String? = nil, changing newState: StoreState? = nil) throws {
        var state = try newState ?? readState()
        let (entries, tail) = try AuditLog.read(auditFile, key: keys.audit, headCount: state.auditCount, head: state.auditHead)
        let entry = AuditEntry(sequence: entries.count + 1, time: store.clock(), user: store.user, action: action, detail: detail)
        let line = try AuditLog.line(for: entry, previous: tail, key: keys.audit)
        try StoreFiles.append(line + Data("\n".utf8), to: auditFile)
        state.auditCount = entry.sequence
        state.auditHead = AuditLog.chain(tail, line)
        try writeState(state)
    }
}

/// What `exportAll` writes: everything about the patient, readable.
public struct PatientDataExport: Codable, Sendable {
    public struct TrustedKey: Codable, Sendable {
        public var fingerprint: String
        public var name: String
        public var identifier: String
    }

    public struct Prescription: Codable, Sendable {
        public var kind: String
        public var patientName: String
        public var patientReference: String
        public var patientBirthYear: Int?
        public var audiologist: PrescriptionDocument.Audiologist
        public var issued: Date
        public var expires: Date?
        public var rule: String
        public var levelReference: String
        public var maximumOutputSPL: Int
        public var programs: [String]
        public var thresholdsHL: [String: [String: Double]]
        public var uncomfortableLevelsHL: [String: [String: Double]]
        public var mediumGainTargetsDecibels: [String: [Int]]

        init(_ document: PrescriptionDocument) {
            kind = document.kind == .debug ? "debug" : "fitting"
            patientName = document.patient.name
            patientReference = document.patient.reference
            patientBirthYear = document.patient.birthYear
            audiologist = document.audiologist
            issued = document.issued
            expires = document.expires
            rule = document.rule.rawValue
            levelReference = document.levelReference.rawValue
            maximumOutputSPL = document.maximumOutputSPL
            programs = document.programs.map(\.rawValue)
            func table(_ values: [Double: Double]) -> [String: Double] {
                Dictionary(uniqueKeysWithValues: values.map { (String(Int($0.key)), $0.value) })
            }
            thresholdsHL = ["left": table(document.audiogram.left.thresholdsHL), "right": table(document.audiogram.right.thresholdsHL)]
            uncomfortableLevelsHL = ["left": table(document.audiogram.left.uncomfortableLevelsHL), "right": table(document.audiogram.right.uncomfortableLevelsHL)]
            mediumGainTargetsDecibels = ["left": document.mediumGainTargets.left, "right": document.mediumGainTargets.right]
        }
    }

    public struct Profile: Codable, Sendable {
        public var id: String
        public var importedAt: Date
        public var inUse: Bool
        public var status: String
        public var prescription: Prescription?
        public var signedText: String?
    }

    public var exportedAt: Date
    public var user: String
    public var trustedKeys: [TrustedKey]
    public var profiles: [Profile]
    public var auditLog: [AuditEntry]
}
