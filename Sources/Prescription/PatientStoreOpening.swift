import AssistCore
import Foundation
import Hearing

/// The passphrase of the patient store or the signing key; a failure is the source's own sentence.
public enum RxPassphrase {
    public static func read(file: String?, environment variable: String, prompt: String, confirm: Bool) throws -> String {
        try PassphraseSource(file: file, environmentVariable: variable)
            .read(prompt: prompt, repeatPrompt: confirm ? "Repeat it: " : nil, mismatch: "The two entries differ; nothing was changed.")
    }
}

extension PatientStore {
    /// The patient store at its usual place, opened with the passphrase from `passphraseFile`, else
    /// ASSIST_RX_PASSPHRASE, else the terminal; set on first use when `createIfMissing`.
    public static func openDefault(passphraseFile: String?, createIfMissing: Bool) throws -> UnlockedPatientStore {
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

extension AudiologistSigningKey {
    /// `assist rx keygen`: a new key written as PREFIX.key (encrypted under the passphrase from
    /// `passphraseFile`, ASSIST_RX_KEY_PASSPHRASE or the terminal, asked twice) and PREFIX.pub; prints where, and the fingerprint.
    public static func writeNewKeyFiles(for audiologist: PrescriptionDocument.Audiologist, prefix output: String, passphraseFile: String?) throws {
        let key = try AudiologistSigningKey.generate(for: audiologist)
        let passphrase = try RxPassphrase.read(file: passphraseFile, environment: "ASSIST_RX_KEY_PASSPHRASE",
                                               prompt: "Passphrase for the new signing key: ", confirm: true)
        let sealed = try key.encryptedFileData(passphrase: passphrase)
        try PrivateFile.write(sealed, to: URL(fileURLWithPath: output + ".key"), replacing: false)
        try PrivateFile.write(key.publicKey.fileData(), to: URL(fileURLWithPath: output + ".pub"))
        print("Wrote \(output).key (keep it private) and \(output).pub (give it to your patients).")
        print("Fingerprint: \(key.publicKey.fingerprint)  (read it aloud when a patient trusts your key)")
    }
}

extension PrescriptionRequest {
    /// `assist rx create`: signed with the key at `keyFile` (its passphrase from `passphraseFile`,
    /// ASSIST_RX_KEY_PASSPHRASE or the terminal) and written as PREFIX.png and PREFIX.svg; the code is
    /// drawn in the terminal unless `quiet`, then what was written is said.
    public func signAndWrite(keyFile: String, passphraseFile: String?, prefix output: String, quiet: Bool,
                             askAudiogram: () throws -> Audiogram) throws {
        let passphrase = try RxPassphrase.read(file: passphraseFile, environment: "ASSIST_RX_KEY_PASSPHRASE",
                                               prompt: "Signing key passphrase: ", confirm: false)
        let signingKey = try AudiologistSigningKey.load(from: URL(fileURLWithPath: keyFile), passphrase: passphrase)
        let signed = try sign(with: signingKey, askAudiogram: askAudiogram)
        let (document, text, code) = (signed.document, signed.text, signed.code)
        try code.writePrivately(prefix: output)
        if !quiet { print(code.terminalText()) }
        print("Signed \(document.kind == .debug ? "debug " : "")prescription for \(patient.name): \(output).png, \(output).svg "
              + "(QR version \(code.version), \(code.width)×\(code.width) modules, \(text.count) characters).")
        if let expires = document.expires { print("Trial prescription: refused after \(PrescriptionDescription.day(expires)).") }
    }
}
