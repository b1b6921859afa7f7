import AssistCore
import Foundation

/// Trusting an audiologist's public key (`assist rx trust`): the patient compares the key's
/// fingerprint with the one the audiologist reads to them before anything is trusted, since a
/// trusted key decides which prescriptions — which gains in their ears — are accepted.
public enum AudiologistTrust {
    /// `confirmed` skips the question (scripts); `ask` returns nil where nobody can answer (not a
    /// terminal), which refuses rather than trusting unseen.
    public static func run(keyFile: URL, confirmed: Bool, store: () throws -> UnlockedPatientStore,
                           ask: (String) -> Bool?, tell: (String) -> Void) throws {
        let key = try AudiologistPublicKey.load(from: keyFile)
        tell("Key of \(key.audiologist.name) (\(key.audiologist.identifier))")
        tell("Fingerprint: \(key.fingerprint)")
        if !confirmed {
            guard let answer = ask("Does your audiologist read the same fingerprint?") else {
                throw PrescriptionError.trustNotConfirmed
            }
            guard answer else { throw PrescriptionError.trustDeclined }
        }
        tell(try store().trust(key) ? "Trusted." : "This key was already trusted.")
    }
}
