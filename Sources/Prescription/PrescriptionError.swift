import AssistCore
import Foundation

/// Everything that can go wrong with a prescription, a key or the patient store, each told as
/// one sentence. The refusals of a prescription (`altered`, `untrustedKey`, `expired`, …) say
/// exactly why it was refused; none of them changes anything already stored.
public enum PrescriptionError: UserFacingError, Equatable {
    // Making a document: the bad field and what is allowed.
    case invalidField(field: String, reason: String)
    // Reading a payload.
    case notAPrescription
    case unsupportedFormatVersion(Int)
    case malformedPayload(field: String)
    case notCanonical
    // Refusals of a well-formed payload.
    case altered
    case untrustedKey(fingerprint: String)
    case audiologistMismatch(payloadIdentifier: String, keyIdentifier: String)
    case expired(on: Date)
    case issuedInTheFuture(on: Date)
    case targetsDisagree(ear: String, frequencyHz: Int, signedDecibels: Int, computedDecibels: Int)
    case fittingRejected(reason: String)
    // QR codes.
    case qrEncodingFailed(reason: String)
    case noQRCodeFound
    /// The camera showed no readable code within the time given.
    case noQRCodeSeen(seconds: Int)
    /// A video standing in for a camera ended before a code was read.
    case videoEndedWithoutQRCode(name: String)
    case unreadableImage(path: String, reason: String)
    // Keys.
    case unreadableKeyFile(path: String, reason: String)
    case wrongKeyPassphrase
    case passphraseTooShort(minimumCharacters: Int)
    case unreasonableKeyDerivation
    // The patient store.
    case storeNotCreated(path: String)
    case storeAlreadyExists(path: String)
    case wrongPassphrase(attemptsBeforeDelay: Int)
    case tryAgainLater(seconds: Int)
    case locked(seconds: Int)
    case storeDamaged(file: String)
    /// A folder, FIFO, socket or device where one of the store's files belongs: never opened.
    case storeFileNotRegular(path: String, kind: NotARegularFile)
    case auditLogTampered(entry: Int)
    case noSuchProfile(String)
    /// Asked for the prescription in use when none was chosen.
    case noneInUse
    case profileRefused(id: String, reason: String)
    case alreadyImported(id: String)
    /// The prescription names another patient than the one whose prescription is in use (both described in words).
    case differentPatient(imported: String, stored: String)
    case storeUnwritable(path: String, reason: String)
    // Hearing through the store, and the debugging mode.
    case noPrescriptionInUse
    case programNotPrescribed(program: String, prescribed: [String])
    case debuggingModeLocked
    case invalidThresholdChange(String)
    // Making a prescription from an audiogram.
    case unreadableAudiogramFile(path: String)
    case audiogramFileNotText(path: String)
    /// A threshold typed at the terminal that is not a number.
    case notAThreshold(String)
    // The patient's answers.
    /// Nobody could be asked (not a terminal) and the key was not confirmed beforehand.
    case trustNotConfirmed
    case trustDeclined
    case importDeclined(imported: String, stored: String)
    // Files beside the store.
    case legacyRecordLeft(path: String)
    case unreadableTextFile(path: String)

    /// The refusal of another patient's prescription, with how to confirm where it was refused
    /// (the command line names its option, a page its check box).
    public static func differentPatientSentence(imported: String, stored: String, confirm: String = "confirm") -> String {
        "This prescription is for \(imported), but this hearing aid's prescriptions are for \(stored); nothing was imported (\(confirm) to import it anyway)."
    }

    public var userMessage: String {
        switch self {
        case .invalidField(let field, let reason):
            return "The prescription's \(field) \(reason)."
        case .notAPrescription:
            return "This is not an AssistiveKit prescription (it does not start with AKRX1:)."
        case .unsupportedFormatVersion(let version):
            return "This prescription uses format version \(version), which this version of AssistiveKit cannot read; update AssistiveKit."
        case .malformedPayload(let field):
            return "The prescription is damaged: its \(field) cannot be read."
        case .notCanonical:
            return "The prescription was refused: it is not in the one canonical encoding, so it was altered or made by other software."
        case .altered:
            return "The prescription was refused: its signature does not match its contents, so it was altered or forged."
        case .untrustedKey(let fingerprint):
            return "The prescription was refused: it is signed by key \(fingerprint), which this installation does not trust; ask your audiologist for their key and run `assist rx trust`."
        case .audiologistMismatch(let payload, let key):
            return "The prescription was refused: it names audiologist \(payload) but is signed by the key of \(key)."
        case .expired(let date):
            return "The prescription was refused: this trial prescription expired on \(Self.day(date)); ask your audiologist for a new one."
        case .issuedInTheFuture(let date):
            return "The prescription was refused: its issue date \(Self.day(date)) is in the future; check this computer's clock."
        case .targetsDisagree(let ear, let f, let signed, let computed):
            return "The prescription was refused: its signed \(ear)-ear target at \(f) Hz is \(signed) dB but this installation computes \(computed) dB; update AssistiveKit or ask your audiologist."
        case .fittingRejected(let reason):
            return "The prescription was refused: \(reason)"
        case .qrEncodingFailed(let reason):
            return "The QR code could not be made: \(reason)."
        case .noQRCodeFound:
            return "No readable QR code was found in the picture; hold the code flat, fill more of the frame and avoid glare."
        case .noQRCodeSeen(let seconds):
            return "No readable QR code was seen in \(seconds) seconds; hold the code flat, about 20 cm from the camera, in good light without glare, and try again."
        case .videoEndedWithoutQRCode(let name):
            return "The video \(name) ended without a readable QR code."
        case .unreadableImage(let path, let reason):
            return "The picture \(path) cannot be read: \(Self.withoutFinalStop(reason))."
        case .unreadableKeyFile(let path, let reason):
            return "The key file \(path) cannot be used: \(Self.withoutFinalStop(reason))."
        case .wrongKeyPassphrase:
            return "The passphrase does not open this signing key."
        case .passphraseTooShort(let minimum):
            return "The passphrase is too short; use at least \(minimum) characters."
        case .unreasonableKeyDerivation:
            return "The file asks for key-derivation parameters outside the safe range, so it was not opened."
        case .storeNotCreated(let path):
            return "There is no patient store at \(path) yet; import a prescription or trust a key first to create it."
        case .storeAlreadyExists(let path):
            return "A patient store already exists at \(path)."
        case .wrongPassphrase(let remaining):
            return remaining > 0
                ? "Wrong passphrase; \(remaining) more wrong attempt\(remaining == 1 ? "" : "s") before you have to wait."
                : "Wrong passphrase; further attempts are delayed."
        case .tryAgainLater(let seconds):
            return "Too many wrong passphrases; try again in \(seconds) second\(seconds == 1 ? "" : "s")."
        case .locked(let seconds):
            return "The patient store is locked after too many wrong passphrases; try again in \(Self.duration(seconds))."
        case .storeDamaged(let file):
            return "The patient store file \(file) was changed outside AssistiveKit or is damaged, so it was not used."
        case .storeFileNotRegular(let path, let kind):
            return "The patient store file \(path) is \(kind.description), not a regular file, so it was not opened; move it away and try again."
        case .auditLogTampered(let entry):
            return "The audit log was changed outside AssistiveKit: the chain breaks at entry \(entry)."
        case .noneInUse:
            return "No prescription is in use; `assist rx list` shows the stored ones."
        case .noSuchProfile(let id):
            return "There is no stored prescription \(id); `assist rx list` shows them."
        case .profileRefused(let id, let reason):
            return "The stored prescription \(id) was refused: \(reason)"
        case .alreadyImported(let id):
            return "This prescription is already stored as \(id)."
        case .differentPatient(let imported, let stored):
            return Self.differentPatientSentence(imported: imported, stored: stored)
        case .storeUnwritable(let path, let reason):
            return "The patient store at \(path) cannot be written: \(reason)."
        case .noPrescriptionInUse:
            return "There is no prescription to hear through: import the QR code from your audiologist (a picture of it, or shown to the camera), or give an audiogram file."
        case .programNotPrescribed(let program, let prescribed):
            return "Your prescription has no \(program) program; it has \(prescribed.joined(separator: ", "))."
        case .debuggingModeLocked:
            return "Changing reference thresholds needs the debugging mode, which only a signed debug prescription from your audiologist or developer unlocks; import one with `assist rx import`."
        case .invalidThresholdChange(let text):
            return "“\(text)” is not a threshold change; write EAR:FREQUENCY=DB, for example left:2000=65 (dB HL, -10 to 120, at 125 to 8000 Hz)."
        case .unreadableAudiogramFile(let path):
            return "The audiogram file \(path) does not exist or is not readable."
        case .audiogramFileNotText(let path):
            return "The audiogram file \(path) is not UTF-8 text; save it as a UTF-8 CSV file."
        case .notAThreshold(let text):
            return "“\(text)” is not a number of dB HL."
        case .trustNotConfirmed:
            return "Nobody can be asked to compare the fingerprint here, so nothing was trusted; confirm beforehand to trust the key."
        case .trustDeclined:
            return "Nothing was trusted."
        case .importDeclined(let imported, let stored):
            return "Nothing was imported: the prescription is for \(imported), not \(stored)."
        case .legacyRecordLeft(let path):
            return "The store was erased, but \(path) could not be removed; delete it by hand."
        case .unreadableTextFile(let path):
            return "The file \(path) does not exist or is not readable."
        }
    }

    /// The reason alone (without "The prescription was refused:"), for a stored profile.
    var refusalReason: String {
        let message = userMessage
        let prefix = "The prescription was refused: "
        guard message.hasPrefix(prefix) else { return message }
        let rest = message.dropFirst(prefix.count)
        return rest.prefix(1).uppercased() + rest.dropFirst()
    }

    /// A reason that is itself a sentence, ready to be embedded before this sentence's own full stop.
    static func withoutFinalStop(_ reason: String) -> String {
        reason.hasSuffix(".") ? String(reason.dropLast()) : reason
    }

    static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }

    static func duration(_ seconds: Int) -> String {
        seconds >= 120 ? "\((seconds + 59) / 60) minutes" : "\(seconds) second\(seconds == 1 ? "" : "s")"
    }
}
