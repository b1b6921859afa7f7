import ArgumentParser
import AssistCore
import Foundation
import Media
import Prescription

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

struct RxImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a prescription from a photo or screenshot of its QR code (or its text with --text-file).",
        discussion: "It is checked before anything is stored: a forged, altered, expired or untrusted prescription is refused with the reason."
    )

    @Argument(help: "A photo or screenshot of the QR code (any picture format FFmpeg reads).")
    var image: String?

    @Option(help: "A file holding the prescription's text (AKRX1:…) instead of a picture.")
    var textFile: String?

    @Flag(help: "Read the code from a live camera (not available yet).")
    var camera = false

    @OptionGroup var store: RxStoreOptions

    func validate() throws {
        if camera { throw ValidationError("--camera is not available yet; photograph the code and give the picture's path.") }
        guard (image == nil) != (textFile == nil) else { throw ValidationError("Give one picture, or --text-file.") }
    }

    func run() throws {
        let text: String
        if let image {
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
        let profile = try unlocked.importPrescription(text: text)
        guard let verified = profile.prescription else { return }
        print("Imported \(profile.id): \(RxDescription.summary(verified.document)).")
        if profile.isActive { print("It is now the prescription in use.") } else if verified.document.kind == .fitting {
            print("Run `assist rx use \(profile.id)` to hear through it.")
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
            case .success(let verified): print("\(mark) \(profile.id)  \(RxDescription.summary(verified.document))")
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
        print(RxDescription.details(verified))
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
        try RxFiles.writePrivate(try unlocked.exportAll(), to: file)
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
        print("All patient data was erased.")
    }
}
