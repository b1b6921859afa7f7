import Foundation
import Hearing

/// A prescription that passed every check: well-formed and canonical, signed by a trusted key
/// whose audiologist it names, not expired, and with targets this installation reproduces.
public struct VerifiedPrescription: Sendable, Equatable {
    public let document: PrescriptionDocument
    /// The QR text exactly as signed; what the patient store keeps.
    public let text: String
    public let signer: AudiologistPublicKey
}

/// Checks prescriptions against the keys this installation trusts, at a given time. The order
/// of the checks fixes which reason a bad prescription is refused with: first whether it can be
/// read at all, then who signed it, then whether the signature holds, then whether the trusted
/// signer is the audiologist it names, then time, then the targets.
public struct PrescriptionVerifier: Sendable {
    public let trustedKeys: [AudiologistPublicKey]
    public let now: Date
    /// How far in the future an issue date may be (clocks of a clinic PC and a patient's phone
    /// disagree by minutes, sometimes by a time zone).
    public static let allowedClockSkewSeconds: TimeInterval = 36 * 3600

    public init(trustedKeys: [AudiologistPublicKey], now: Date) {
        self.trustedKeys = trustedKeys
        self.now = now
    }

    public func verify(text: String) throws -> VerifiedPrescription {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let payload = try PayloadCoding.payload(fromText: trimmed)
        let (document, keyID, signedBytes, signature) = try PayloadCoding.decode(payload)
        guard let signer = trustedKeys.first(where: { $0.keyID == keyID }) else {
            throw PrescriptionError.untrustedKey(fingerprint: AudiologistPublicKey.fingerprint(ofKeyID: keyID))
        }
        guard signer.verifyingKey.isValidSignature(signature, for: PayloadCoding.message(forSignedBytes: signedBytes)) else {
            throw PrescriptionError.altered
        }
        guard document.audiologist.identifier == signer.audiologist.identifier else {
            throw PrescriptionError.audiologistMismatch(payloadIdentifier: document.audiologist.identifier,
                                                        keyIdentifier: signer.audiologist.identifier)
        }
        if let expires = document.expires, document.isExpired(at: now) {
            throw PrescriptionError.expired(on: expires)
        }
        if document.issued.timeIntervalSince(now) > Self.allowedClockSkewSeconds {
            throw PrescriptionError.issuedInTheFuture(on: document.issued)
        }
        let computed = try PrescriptionDocument.targets(audiogram: document.audiogram, rule: document.rule,
                                                        levelReference: document.levelReference,
                                                        maximumOutputSPL: document.maximumOutputSPL)
        for ear in Ear.allCases {
            for (index, f) in AudiometricFrequency.all.enumerated()
            where abs(computed[ear][index] - document.mediumGainTargets[ear][index]) > 1 {
                throw PrescriptionError.targetsDisagree(ear: ear.name, frequencyHz: Int(f),
                                                        signedDecibels: document.mediumGainTargets[ear][index],
                                                        computedDecibels: computed[ear][index])
            }
        }
        return VerifiedPrescription(document: document, text: trimmed, signer: signer)
    }
}
