import AssistCore
import Foundation

/// Everything that can go wrong in settings, history, statistics and backup, each told to the
/// user in one sentence that names the field or file and what is allowed.
public enum StorageError: UserFacingError, Equatable {
    /// A setting's value is the wrong type or out of range; nothing was stored.
    case invalidSetting(key: String, allowed: String, given: String)
    /// No setting has this name; `suggestions` are the closest names by edit distance.
    case unknownSetting(key: String, suggestions: [String])
    /// A category name the detector does not know; `suggestions` are the closest valid names.
    case unknownCategory(key: String, name: String, suggestions: [String])
    /// Two settings contradict each other (a category both prioritised and ignored).
    case conflictingSettings(keys: [String], reason: String)
    /// A detection or usage value handed in by the caller is out of range.
    case invalidRecord(field: String, allowed: String, given: String)
    /// SQLite reported SQLITE_FULL: the disk (or the configured size cap) has no room. The write
    /// was rolled back, so what was stored before is intact.
    case diskFull(path: String)
    /// The database could not be opened or used for a reason other than damage (permissions, a
    /// folder in the way).
    case databaseUnavailable(path: String, reason: String)
    /// Something other than a regular file (a folder, a FIFO, a socket, a device) stands where a
    /// data file belongs; it is never opened, since a FIFO would block every command.
    case notARegularFile(path: String, kind: NotARegularFile)
    /// The key that encrypts history could not be read or created.
    case keyUnavailable(path: String, reason: String)
    /// Stored history does not open with the key: the key file was replaced or lost, or a row
    /// was edited on disk (AES-GCM cannot tell the two apart).
    case historyKeyMismatch(keyPath: String)
    /// The backup file cannot be read at all.
    case backupUnreadable(path: String, reason: String)
    /// The backup's integrity check failed: wrong passphrase, tampering or truncation.
    case backupRejected(path: String)
    /// The backup was written by a newer AssistiveKit whose format this one does not know.
    case backupUnsupportedVersion(path: String, version: Int)
    /// The backup decrypted but holds a value this version refuses; nothing was imported.
    case backupInvalidContent(path: String, problem: String)
    /// The passphrase is too short to protect a backup.
    case passphraseTooShort(minimumCharacters: Int)

    /// Why a file could not be used when SQLite's write (or its companion files) was refused.
    static let writeRefusedReason = "the disk refused a write (it may be full, or the folder read-only)"

    /// A write the disk refused, as opposed to a damaged file or a wrong key: reading may still work.
    var isRefusedWrite: Bool {
        switch self {
        case .diskFull: return true
        case .databaseUnavailable(_, let reason): return reason == Self.writeRefusedReason
        default: return false
        }
    }

    public var userMessage: String {
        switch self {
        case .invalidSetting(let key, let allowed, let given):
            return "The setting \(key) must be \(allowed); \(given) is not allowed, so nothing was changed."
        case .unknownSetting(let key, let suggestions):
            return "There is no setting called \(key)\(Self.didYouMean(suggestions)); `assist settings show` lists them all."
        case .unknownCategory(let key, let name, let suggestions):
            return "The setting \(key) does not accept \"\(name)\" because the detector has no such category\(Self.didYouMean(suggestions)), so nothing was changed."
        case .conflictingSettings(let keys, let reason):
            return "The settings \(keys.joined(separator: " and ")) contradict each other: \(reason), so nothing was changed."
        case .invalidRecord(let field, let allowed, let given):
            return "The \(field) of a record must be \(allowed); \(given) is not allowed, so it was not stored."
        case .diskFull(let path):
            return "There is no room left on the disk for \(path); nothing was changed and earlier data is intact, so free some space and try again."
        case .databaseUnavailable(let path, let reason):
            return "The AssistiveKit data file \(path) cannot be used: \(reason)."
        case .notARegularFile(let path, let kind):
            return "The AssistiveKit data file \(path) is \(kind.description), not a regular file, so it was not opened; move it away and try again."
        case .keyUnavailable(let path, let reason):
            return "The encryption key \(path) cannot be read or created: \(reason)."
        case .historyKeyMismatch(let keyPath):
            return "The detection history cannot be read with the key \(keyPath): it was encrypted with another key or changed on disk; run `assist history clear` to start a new history."
        case .backupUnreadable(let path, let reason):
            return "The backup \(path) cannot be read: \(reason)."
        case .backupRejected(let path):
            return "The backup \(path) failed its integrity check: the passphrase is wrong or the file was changed or cut short, so nothing was imported."
        case .backupUnsupportedVersion(let path, let version):
            return "The backup \(path) is in format version \(version), which this version of AssistiveKit cannot read, so nothing was imported."
        case .backupInvalidContent(let path, let problem):
            return "The backup \(path) holds a value that is not allowed (\(problem)), so nothing was imported."
        case .passphraseTooShort(let minimum):
            return "The backup passphrase must have at least \(minimum) characters."
        }
    }

    static func didYouMean(_ suggestions: [String]) -> String {
        switch suggestions.count {
        case 0: return ""
        case 1: return " (did you mean \(suggestions[0])?)"
        default:
            return " (did you mean \(suggestions.dropLast().joined(separator: ", ")) or \(suggestions.last!)?)"
        }
    }
}
