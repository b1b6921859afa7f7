import AssistCore
import Foundation
import Media

/// Importing a prescription into the patient store (`assist rx import`), with the two questions
/// the patient is asked: a prescription for another patient is imported only when confirmed, and
/// a newer fitting for the same patient waits until the patient chooses it (a change of what
/// they hear is never a side effect of an import).
public struct PrescriptionImport {
    public let store: UnlockedPatientStore
    /// Import a prescription naming another patient without asking (for scripts).
    public var allowsAnotherPatient = false
    /// Hear through the imported prescription at once.
    public var makesActive = false

    public init(store: UnlockedPatientStore, allowsAnotherPatient: Bool = false, makesActive: Bool = false) {
        self.store = store
        self.allowsAnotherPatient = allowsAnotherPatient
        self.makesActive = makesActive
    }

    /// `ask` puts a yes/no question to the patient, or returns nil where nobody can answer
    /// (not a terminal); `tell` shows a line.
    public func run(text: String, ask: (String) -> Bool?, tell: (String) -> Void) throws {
        let inUse = try? store.activePrescription()
        let profile: StoredProfile
        do {
            profile = try store.importPrescription(text: text, allowingAnotherPatient: allowsAnotherPatient, makeActive: makesActive)
        } catch PrescriptionError.differentPatient(let imported, let stored) where !allowsAnotherPatient {
            let question = "This prescription is for \(imported), but this hearing aid's prescriptions are for \(stored). Import it anyway?"
            guard let answer = ask(question) else { throw PrescriptionError.differentPatient(imported: imported, stored: stored) }
            guard answer else { throw PrescriptionError.importDeclined(imported: imported, stored: stored) }
            profile = try store.importPrescription(text: text, allowingAnotherPatient: true, makeActive: makesActive)
        }
        guard let verified = profile.prescription else { return }
        tell("Imported \(profile.id): \(PrescriptionDescription.summary(verified.document)).")
        if profile.isActive { tell("It is now the prescription in use."); return }
        guard verified.document.kind == .fitting else { return }
        if let inUse, inUse.document.patient.isSamePerson(as: verified.document.patient), verified.document.issued > inUse.document.issued {
            let question = "It is newer than the prescription in use (issued \(PrescriptionDescription.day(verified.document.issued)), "
                + "the one in use \(PrescriptionDescription.day(inUse.document.issued)))."
            switch ask(question + " Use it now?") {
            case true?:
                try store.use(profile.id)
                tell("It is now the prescription in use.")
                return
            case false?: break
            case nil: tell(question)
            }
        }
        tell("Run `assist rx use \(profile.id)` to hear through it.")
    }
}

extension StoredProfile {
    /// The line `assist rx list` prints: * for the one in use, the id, and what it is or why it is refused.
    public var listLine: String {
        let mark = isActive ? "*" : " "
        switch verification {
        case .success(let verified): return "\(mark) \(id)  \(PrescriptionDescription.summary(verified.document))"
        case .failure(let error): return "\(mark) \(id)  REFUSED: \(error.userMessage)"
        }
    }
}

extension AuditEntry {
    /// The tab-separated line `assist rx log` prints.
    public var line: String {
        "\(sequence)\t\(ISO8601DateFormatter().string(from: time))\t\(user)\t\(action)\(detail.map { ": \($0)" } ?? "")"
    }
}

extension UnlockedPatientStore {
    /// Erases everything stored, and the plain-text record of the last started fitting that
    /// versions before 2026-11 kept beside the store.
    public func eraseAllWithLegacyRecord() throws {
        try eraseAll()
        let legacy = UserDirectories.data().appendingPathComponent("hearing/last-started-prescription.json")
        if FileManager.default.fileExists(atPath: legacy.path) {
            try? FileManager.default.removeItem(at: legacy)
            guard !FileManager.default.fileExists(atPath: legacy.path) else {
                throw PrescriptionError.legacyRecordLeft(path: legacy.path)
            }
        }
    }
}

extension LiveCodeScanner {
    /// `assist rx import --camera`: asks the user (on screen through `tell`, and aloud through
    /// the voice `makeVoice` opens where speech can be played) to hold the code in front of the
    /// camera, then reads frames until one holds it. A failure is said aloud too: the user is
    /// looking at the camera, not the screen.
    /// `makeVoice` is called once the camera is open.
    public static func readShownCode(device: String, timeoutSeconds: Double, makeVoice: () -> (any AnswerVoice)?,
                                     tell: (String) -> Void) async throws -> String {
        let frames = try LiveCodeScanner.open(VideoInput(argument: device))
        let prompt = "Hold the prescription's QR code in front of the camera, about 20 centimetres away."
        tell(prompt)
        let voice = makeVoice()
        voice?.sayAnswer([prompt], key: "rx camera prompt")
        defer { try? voice?.finish() }
        do {
            let reading = try await LiveCodeScanner(timeoutSeconds: timeoutSeconds).read(frames)
            tell(String(format: "Code read after %.1f s (%d frames looked at).", reading.seconds, reading.framesScanned))
            return reading.text
        } catch {
            voice?.sayAnswer([userMessage(for: error)], key: "rx camera failure")
            throw error
        }
    }
}

extension PrescriptionImport {
    /// The prescription's text, read from a picture of its QR code received as bytes (an upload
    /// to the web app's Prescriptions page): decoded in memory, read by the same zbar path, and
    /// refused with the same sentences as a picture file named `name`.
    public static func text(pictureBytes: Data, name: String) throws -> String {
        let image: RGBImage
        do { image = try ImageFile.decode(bytes: pictureBytes, name: name, fittingWithin: QRCodeReader.maximumSearchSide) } catch {
            throw PrescriptionError.unreadableImage(path: name, reason: userMessage(for: error))
        }
        return try QRCodeReader.text(in: image)
    }

    /// The prescription's text, read from a picture of its QR code or from a text file (`assist rx import`).
    public static func text(picture: String?, textFile: String?) throws -> String {
        if let picture {
            let image: RGBImage
            do { image = try ImageFile(URL(fileURLWithPath: picture)).decode(fittingWithin: QRCodeReader.maximumSearchSide) } catch {
                throw PrescriptionError.unreadableImage(path: picture, reason: userMessage(for: error))
            }
            return try QRCodeReader.text(in: image)
        }
        guard let textFile, let read = try? String(contentsOfFile: textFile, encoding: .utf8) else {
            throw PrescriptionError.unreadableTextFile(path: textFile ?? "")
        }
        return read
    }
}
