import ArgumentParser
import AssistCore
import Foundation
import Hearing
import Media
import Prescription

struct RxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rx",
        abstract: "Signed hearing-aid prescriptions: the audiologist signs them into a QR code, the patient imports them.",
        discussion: """
            Audiologist: `rx keygen` once, give patients the .pub file, then `rx create` for each prescription.
            Patient: `rx trust` the audiologist's key (compare the fingerprint aloud), `rx import` the QR code, \
            `rx list`, `rx show`, `rx use`. Prescriptions cannot be edited; a forged, altered, expired or untrusted \
            one is refused with the reason. The patient store is encrypted under a passphrase or PIN set at first \
            use (from --passphrase-file, else ASSIST_RX_PASSPHRASE, else asked in the terminal without echo); \
            wrong passphrases slow down and then lock it. `rx log`, `rx export` and `rx erase` show, export and \
            delete everything stored.
            """,
        subcommands: [RxKeygen.self, RxCreate.self, RxTrust.self, RxImport.self, RxList.self, RxShow.self, RxUse.self,
                      RxLog.self, RxExport.self, RxErase.self]
    )
}

/// The passphrase of the patient store or the signing key; a failure is one sentence, exit 1.
enum RxPassphrase {
    static func read(file: String?, environment variable: String, prompt: String, confirm: Bool) throws -> String {
        do {
            return try PassphraseSource(file: file, environmentVariable: variable)
                .read(prompt: prompt, repeatPrompt: confirm ? "Repeat it: " : nil, mismatch: "The two entries differ; nothing was changed.")
        } catch { throw CommandFailure(error.userMessage) }
    }
}

/// The patient store at its usual place, opened with the passphrase (set on first use when
/// `createIfMissing`).
struct RxStoreOptions: ParsableArguments {
    @Option(help: "A file whose first line is the patient store's passphrase or PIN (else ASSIST_RX_PASSPHRASE, else asked).")
    var passphraseFile: String?

    func open(createIfMissing: Bool = false) throws -> UnlockedPatientStore {
        let store = PatientStore(folder: PatientStore.defaultFolder(), unrecordedAccess: { sentence in
            FileHandle.standardError.write(Data((sentence + "\n").utf8))
        })
        if !store.exists {
            guard createIfMissing else { throw PrescriptionError.storeNotCreated(path: store.folder.path) }
            print("First use: choose a passphrase or PIN (at least \(PatientStore.minimumPassphraseCharacters) characters) for your prescriptions.")
            let passphrase = try RxPassphrase.read(file: passphraseFile, environment: "ASSIST_RX_PASSPHRASE",
                                                   prompt: "New passphrase: ", confirm: true)
            return try store.create(passphrase: passphrase)
        }
        // Tell the wait before asking, rather than after the passphrase was typed.
        let wait = try store.waitBeforeNextAttempt()
        if wait.seconds > 0 {
            throw wait.isLock ? PrescriptionError.locked(seconds: wait.seconds) : PrescriptionError.tryAgainLater(seconds: wait.seconds)
        }
        let passphrase = try RxPassphrase.read(file: passphraseFile, environment: "ASSIST_RX_PASSPHRASE",
                                               prompt: "Passphrase: ", confirm: false)
        return try store.unlock(passphrase: passphrase)
    }
}
