import ArgumentParser
import AssistCore
import Foundation
import Hearing
import Prescription

#if canImport(Glibc)
import Glibc
#endif

struct RxKeygen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Make an audiologist's signing key: PREFIX.key (encrypted under a passphrase) and PREFIX.pub (for patients).",
        discussion: """
            The private key is Ed25519, encrypted with AES-256-GCM under a key derived from the passphrase by scrypt \
            (128 MiB, about half a second). The passphrase comes from --passphrase-file, else \
            ASSIST_RX_KEY_PASSPHRASE, else it is asked twice in the terminal. Existing files are never overwritten.
            """ + DocsPage.hearing.seeAlso
    )

    @Option(help: "Your name as patients should see it on their prescriptions.")
    var name: String

    @Option(name: .customLong("id"), help: "Your registration number or another identifier the key is issued to.")
    var identifier: String

    @Option(help: "Where to write: PREFIX.key and PREFIX.pub.")
    var output: String

    @Option(help: "A file whose first line is the passphrase for the private key (at least 8 characters).")
    var passphraseFile: String?

    func validate() throws {
        for path in [output + ".key", output + ".pub"] where FileManager.default.fileExists(atPath: path) {
            throw ValidationError("\(path) already exists; choose another --output or move it away.")
        }
    }

    func run() throws {
        try AudiologistSigningKey.writeNewKeyFiles(for: .init(name: name, identifier: identifier), prefix: output, passphraseFile: passphraseFile)
    }
}

struct RxCreate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Sign a prescription and write it as a QR code: PREFIX.png, PREFIX.svg and, on screen, as text.",
        discussion: """
            The audiogram comes from --audiogram: a JSON file as for `assist hear` (which may also set rule and \
            maximumOutputSPL) or a CSV file `frequency,left,right[,left_ucl,right_ucl]` in dB HL; without it the \
            thresholds are asked for in the terminal. The targets are computed with the fitting rule and signed \
            with the prescription. --trial-days makes a temporary trial prescription that is refused after it expires.
            """ + DocsPage.hearing.seeAlso
    )

    @Option(help: "Your signing key (PREFIX.key from `rx keygen`).")
    var key: String

    @Option(help: "A file whose first line is the signing key's passphrase (else ASSIST_RX_KEY_PASSPHRASE, else asked).")
    var passphraseFile: String?

    @Option(help: "The patient's name.")
    var patient: String

    @Option(help: "The clinic's patient number (optional).")
    var patientReference: String = ""

    @Option(help: "The patient's year of birth (optional).")
    var birthYear: Int?

    @Option(help: "The audiogram: a .json (as for `assist hear`) or .csv file. Without it, asked in the terminal.")
    var audiogram: String?

    @Option(help: "Fitting rule: nal-r, nal-rp, half-gain, pogo or fig6 (default: the JSON's rule, else fig6).")
    var rule: String?

    @Option(help: "Maximum output in dB SPL, 60 to 111 (default: the JSON's, else 100).")
    var maximumOutput: Int?

    @Option(help: "Programs the patient may use, comma-separated: quiet, conversation-in-noise, music, outdoors, tv (default: all).")
    var programs: String?

    @Option(help: "Make a trial prescription that expires after this many days (1 to 365).")
    var trialDays: Int?

    @Flag(help: "Make a debug prescription: it unlocks the debugging mode in which reference thresholds may be changed.")
    var debug = false

    @Option(help: "Where to write: PREFIX.png and PREFIX.svg.")
    var output: String

    @Flag(help: "Do not draw the QR code in the terminal.")
    var quiet = false

    func validate() throws {
        if let trialDays, !(1...365).contains(trialDays) { throw ValidationError("--trial-days must be 1 to 365.") }
        if let rule { _ = try FittingRule(named: rule) }
        if let programs { for name in programs.split(separator: ",") { _ = try ListeningProgram(named: String(name)) } }
        if audiogram == nil && isatty(STDIN_FILENO) == 0 {
            throw ValidationError("Give --audiogram FILE, or run in a terminal to type the thresholds.")
        }
    }

    func run() throws {
        var request = PrescriptionRequest(patient: .init(name: patient, reference: patientReference, birthYear: birthYear),
                                          audiogramFile: audiogram)
        request.rule = rule
        request.maximumOutputSPL = maximumOutput
        request.programs = programs
        request.trialDays = trialDays
        request.isDebug = debug
        try request.signAndWrite(keyFile: key, passphraseFile: passphraseFile, prefix: output, quiet: quiet, askAudiogram: Self.askAudiogram)
    }

    /// Thresholds typed at the terminal, ear by ear; an empty answer skips a frequency.
    static func askAudiogram() throws -> Audiogram {
        try Audiogram.typedIn(prompt: { text, newline in print(text, terminator: newline ? "\n" : "") }, readLine: { readLine() })
    }
}
