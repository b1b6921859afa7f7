import ArgumentParser
import AssistCore
import Foundation
import Media
import Prescription
import Speech

#if canImport(Glibc)
import Glibc
#endif

struct RxTrust: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust",
        abstract: "Trust an audiologist's public key (their .pub file): prescriptions they sign can then be imported.",
        discussion: "Compare the fingerprint shown with the one your audiologist reads to you; in a terminal you are asked to confirm."
    )

    @Argument(help: "The audiologist's public key file (.pub).")
    var keyFile: String

    @Flag(help: "Do not ask to confirm the fingerprint (for scripts).")
    var yes = false

    @OptionGroup var store: RxStoreOptions

    func run() throws {
        let key = try AudiologistPublicKey.load(from: URL(fileURLWithPath: keyFile))
        print("Key of \(key.audiologist.name) (\(key.audiologist.identifier))")
        print("Fingerprint: \(key.fingerprint)")
        if !yes {
            guard isatty(STDIN_FILENO) != 0 else { throw CommandFailure("Confirm with --yes when not in a terminal; nothing was trusted.") }
            print("Does your audiologist read the same fingerprint? [y/N] ", terminator: "")
            guard readLine()?.lowercased().hasPrefix("y") == true else { throw CommandFailure("Nothing was trusted.") }
        }
        let unlocked = try store.open(createIfMissing: true)
        print(try unlocked.trust(key) ? "Trusted." : "This key was already trusted.")
    }
}

struct RxImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a prescription from a photo or screenshot of its QR code, from a live camera (--camera), or from its text (--text-file).",
        discussion: """
            It is checked before anything is stored: a forged, altered, expired or untrusted prescription is refused with the reason.

            With --camera you are asked (on screen, and aloud where speech can be played) to hold the code in front of the \
            camera; frames are read until one holds a code or --timeout passes. No frame is written anywhere. A video file \
            or stream given instead of a camera is read the same way.
            """
    )

    @Argument(help: "A photo or screenshot of the QR code (any picture format FFmpeg reads); with --camera, the camera (default /dev/video0), or a video file or stream.")
    var image: String?

    @Option(help: "A file holding the prescription's text (AKRX1:…) instead of a picture.")
    var textFile: String?

    @Flag(help: "Read the code from a live camera (the argument names it; default /dev/video0).")
    var camera = false

    @Option(help: "With --camera: seconds to wait for a readable code (1 to 600).")
    var timeout: Double = LiveCodeScanner.defaultTimeoutSeconds

    @Flag(help: "Import even when the prescription names another patient than the stored ones (for scripts; in a terminal you are asked).")
    var yes = false

    @Flag(help: "Hear through the imported prescription at once (otherwise a newer one waits for `assist rx use`, and you are asked in a terminal).")
    var use = false

    @OptionGroup var store: RxStoreOptions

    @OptionGroup(title: "Speech (with --camera)") var speech: SpeechOutputOptions

    func validate() throws {
        guard LiveCodeScanner.allowedTimeoutSeconds.contains(timeout) else { throw ValidationError("--timeout must be 1 to 600 seconds.") }
        if camera {
            guard textFile == nil else { throw ValidationError("Give --camera or --text-file, not both.") }
        } else {
            guard (image == nil) != (textFile == nil) else { throw ValidationError("Give one picture, --camera, or --text-file.") }
        }
    }

    func run() async throws {
        let text: String
        if camera {
            text = try await readFromCamera()
        } else if let image {
            let picture: RGBImage
            do { picture = try ImageFile(URL(fileURLWithPath: image)).decode() } catch {
                throw PrescriptionError.unreadableImage(path: image, reason: userMessage(for: error))
            }
            text = try QRCodeReader.text(in: picture)
        } else {
            guard let read = try? String(contentsOfFile: textFile!, encoding: .utf8) else {
                throw CommandFailure("The file \(textFile!) does not exist or is not readable.")
            }
            text = read
        }
        let unlocked = try store.open(createIfMissing: true)
        let inUse = try? unlocked.activePrescription()
        let profile: StoredProfile
        do {
            profile = try unlocked.importPrescription(text: text, allowingAnotherPatient: yes, makeActive: use)
        } catch PrescriptionError.differentPatient(let imported, let stored) where !yes && isatty(STDIN_FILENO) != 0 {
            print("This prescription is for \(imported), but this hearing aid's prescriptions are for \(stored). Import it anyway? [y/N] ",
                  terminator: "")
            guard readLine()?.lowercased().hasPrefix("y") == true else {
                throw CommandFailure("Nothing was imported: the prescription is for \(imported), not \(stored).")
            }
            profile = try unlocked.importPrescription(text: text, allowingAnotherPatient: true, makeActive: use)
        }
        guard let verified = profile.prescription else { return }
        print("Imported \(profile.id): \(PrescriptionDescription.summary(verified.document)).")
        if profile.isActive { print("It is now the prescription in use."); return }
        guard verified.document.kind == .fitting else { return }
        // A newer fitting for the same patient waits until the patient chooses it: a change of
        // what they hear is never a side effect of an import.
        if let inUse, inUse.document.patient.isSamePerson(as: verified.document.patient), verified.document.issued > inUse.document.issued {
            let question = "It is newer than the prescription in use (issued \(PrescriptionDescription.day(verified.document.issued)), "
                + "the one in use \(PrescriptionDescription.day(inUse.document.issued)))."
            if isatty(STDIN_FILENO) != 0 {
                print(question + " Use it now? [y/N] ", terminator: "")
                if readLine()?.lowercased().hasPrefix("y") == true {
                    try unlocked.use(profile.id)
                    print("It is now the prescription in use.")
                    return
                }
            } else {
                print(question)
            }
        }
        print("Run `assist rx use \(profile.id)` to hear through it.")
    }

    /// Asks the user to show the code, then reads frames until one holds it.
    private func readFromCamera() async throws -> String {
        let device = image ?? "/dev/video0"
        let frames = try LiveCodeScanner.open(VideoInput(argument: device))
        let prompt = "Hold the prescription's QR code in front of the camera, about 20 centimetres away."
        FileHandle.standardError.write(Data((prompt + "\n").utf8))
        let spoken = speakingOutput()
        spoken?.say(Utterance(prompt, priority: .answer, contentKey: "rx camera prompt"))
        defer { try? spoken?.finish() }
        do {
            let reading = try await LiveCodeScanner(timeoutSeconds: timeout).read(frames)
            FileHandle.standardError.write(Data(String(format: "Code read after %.1f s (%d frames looked at).\n",
                                                       reading.seconds, reading.framesScanned).utf8))
            return reading.text
        } catch {
            // Said aloud too: the user is looking at the camera, not the screen.
            spoken?.say(Utterance(userMessage(for: error), priority: .answer, contentKey: "rx camera failure"))
            throw error
        }
    }

    /// Speech for the camera prompt; nil under --quiet, or (said once on stderr) when no audio device exists.
    private func speakingOutput() -> SpokenOutput? {
        guard !speech.quiet else { return nil }
        do { return try SpokenOutput(speech, maximumSpeechSeconds: 10) } catch {
            FileHandle.standardError.write(Data("The prompt could not be spoken: \(userMessage(for: error))\n".utf8))
            return nil
        }
    }
}

struct RxList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the stored prescriptions, each checked again now; * marks the one in use."
    )

    @OptionGroup var store: RxStoreOptions

    func run() throws {
        let unlocked = try store.open()
        let profiles = try unlocked.profiles()
        if profiles.isEmpty { print("No prescriptions yet; `assist rx import PICTURE` adds one.") }
        for profile in profiles {
            let mark = profile.isActive ? "*" : " "
            switch profile.verification {
            case .success(let verified): print("\(mark) \(profile.id)  \(PrescriptionDescription.summary(verified.document))")
            case .failure(let error): print("\(mark) \(profile.id)  REFUSED: \(error.userMessage)")
            }
        }
    }
}

struct RxShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a stored prescription (default: the one in use): audiogram, targets, programs, who and when."
    )

    @Argument(help: "The prescription's id from `assist rx list`.")
    var id: String?

    @OptionGroup var store: RxStoreOptions

    func run() throws {
        let unlocked = try store.open()
        let verified: VerifiedPrescription
        if let id { verified = try unlocked.profile(id) } else {
            guard let active = try unlocked.activePrescription() else { throw CommandFailure("No prescription is in use; `assist rx list` shows the stored ones.") }
            verified = active
        }
        print(PrescriptionDescription.details(verified))
    }
}

struct RxUse: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "use",
        abstract: "Choose the stored prescription the hearing assistant uses."
    )

    @Argument(help: "The prescription's id from `assist rx list`.")
    var id: String

    @OptionGroup var store: RxStoreOptions

    func run() throws {
        let unlocked = try store.open()
        try unlocked.use(id)
        print("Now using \(id).")
    }
}

struct RxLog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Show the audit log: every access and change, who and when; its hash chain is checked."
    )

    @OptionGroup var store: RxStoreOptions

    func run() throws {
        let unlocked = try store.open()
        let formatter = ISO8601DateFormatter()
        for entry in try unlocked.auditEntries() {
            print("\(entry.sequence)\t\(formatter.string(from: entry.time))\t\(entry.user)\t\(entry.action)\(entry.detail.map { ": \($0)" } ?? "")")
        }
    }
}

struct RxExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write all your stored data (prescriptions, trusted keys, audit log) as readable JSON to FILE (mode 0600)."
    )

    @Argument(help: "The file to create (it must not exist).")
    var file: String

    @OptionGroup var store: RxStoreOptions

    func run() throws {
        let unlocked = try store.open()
        try PrivateFile.write(try unlocked.exportAll(), to: URL(fileURLWithPath: file), replacing: false)
        print("Exported all patient data to \(file); it is not encrypted, keep it safe.")
    }
}

struct RxErase: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase",
        abstract: "Delete every stored prescription, trusted key, the audit log and the passphrase. Cannot be undone."
    )

    @Flag(help: "Confirm that everything is to be deleted.")
    var yes = false

    @OptionGroup var store: RxStoreOptions

    func validate() throws {
        guard yes else { throw ValidationError("Add --yes to confirm; `assist rx export FILE` first keeps a copy.") }
    }

    func run() throws {
        let unlocked = try store.open()
        try unlocked.eraseAll()
        // Versions before 2026-11 kept the last started fitting in plain text here.
        let legacy = UserDirectories.data().appendingPathComponent("hearing/last-started-prescription.json")
        if FileManager.default.fileExists(atPath: legacy.path) {
            try? FileManager.default.removeItem(at: legacy)
            guard !FileManager.default.fileExists(atPath: legacy.path) else {
                throw CommandFailure("The store was erased, but \(legacy.path) could not be removed; delete it by hand.")
            }
        }
        print("All patient data was erased.")
    }
}
