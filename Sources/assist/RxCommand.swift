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
            """ + DocsPage.hearing.seeAlso,
        subcommands: [RxKeygen.self, RxCreate.self, RxTrust.self, RxImport.self, RxList.self, RxShow.self, RxUse.self,
                      RxLog.self, RxExport.self, RxErase.self]
    )
}

/// The patient store at its usual place, opened with the passphrase (set on first use when
/// `createIfMissing`).
struct RxStoreOptions: ParsableArguments {
    @Option(help: "A file whose first line is the patient store's passphrase or PIN (else ASSIST_RX_PASSPHRASE, else asked).")
    var passphraseFile: String?

    func open(createIfMissing: Bool = false) throws -> UnlockedPatientStore {
        try PatientStore.openDefault(passphraseFile: passphraseFile, createIfMissing: createIfMissing)
    }
}
