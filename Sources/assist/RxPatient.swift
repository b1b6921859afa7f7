import ArgumentParser
import AssistCore
import Foundation
import Media
import Prescription
import Speech

struct RxTrust: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust",
        abstract: "Trust an audiologist's public key (their .pub file): prescriptions they sign can then be imported.",
        discussion: "Compare the fingerprint shown with the one your audiologist reads to you; in a terminal you are asked to confirm." + DocsPage.hearing.seeAlso
    )

    @Argument(help: "The audiologist's public key file (.pub).")
    var keyFile: String

    @Flag(help: "Do not ask to confirm the fingerprint (for scripts).")
    var yes = false

    @OptionGroup var store: RxStoreOptions

    func run() throws {
        try AudiologistTrust.run(keyFile: URL(fileURLWithPath: keyFile), confirmed: yes, store: { try store.open(createIfMissing: true) },
                                 ask: TerminalQuestion.yesOrNo, tell: { print($0) })
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
            """ + DocsPage.hearing.seeAlso
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
        let text = try await camera ? readFromCamera() : PrescriptionImport.text(picture: image, textFile: textFile)
        let importing = PrescriptionImport(store: try store.open(createIfMissing: true), allowsAnotherPatient: yes, makesActive: use)
        try importing.run(text: text, ask: TerminalQuestion.yesOrNo, tell: { print($0) })
    }

    /// Asks the user to show the code, then reads frames until one holds it.
    private func readFromCamera() async throws -> String {
        try await LiveCodeScanner.readShownCode(device: image ?? "/dev/video0", timeoutSeconds: timeout, makeVoice: { SpokenOutput.forPrompt(speech.choice) },
                                                tell: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
    }
}

struct RxList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the stored prescriptions, each checked again now; * marks the one in use.",
        discussion: DocsPage.hearing.reference
    )

    @OptionGroup var store: RxStoreOptions

    func run() throws {
        let unlocked = try store.open()
        let profiles = try unlocked.profiles()
        if profiles.isEmpty { print("No prescriptions yet; `assist rx import PICTURE` adds one.") }
        profiles.forEach { print($0.listLine) }
    }
}

struct RxShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a stored prescription (default: the one in use): audiogram, targets, programs, who and when.",
        discussion: DocsPage.hearing.reference
    )

    @Argument(help: "The prescription's id from `assist rx list`.")
    var id: String?

    @OptionGroup var store: RxStoreOptions

    func run() throws {
        print(PrescriptionDescription.details(try store.open().prescription(id)))
    }
}

struct RxUse: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "use",
        abstract: "Choose the stored prescription the hearing assistant uses.",
        discussion: DocsPage.hearing.reference
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
        abstract: "Show the audit log: every access and change, who and when; its hash chain is checked.",
        discussion: DocsPage.hearing.reference
    )

    @OptionGroup var store: RxStoreOptions

    func run() throws {
        let unlocked = try store.open()
        try unlocked.auditEntries().forEach { print($0.line) }
    }
}

struct RxExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write all your stored data (prescriptions, trusted keys, audit log) as readable JSON to FILE (mode 0600).",
        discussion: DocsPage.hearing.reference
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
        abstract: "Delete every stored prescription, trusted key, the audit log and the passphrase. Cannot be undone.",
        discussion: DocsPage.hearing.reference
    )

    @Flag(help: "Confirm that everything is to be deleted.")
    var yes = false

    @OptionGroup var store: RxStoreOptions

    func validate() throws {
        guard yes else { throw ValidationError("Add --yes to confirm; `assist rx export FILE` first keeps a copy.") }
    }

    func run() throws {
        let unlocked = try store.open()
        try unlocked.eraseAllWithLegacyRecord()
        print("All patient data was erased.")
    }
}
