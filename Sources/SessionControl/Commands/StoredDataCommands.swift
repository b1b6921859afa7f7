import AssistCore
import Foundation
import Storage

/// What `assist settings` and `assist history` do with the user's database, printed as the commands show it.
extension SettingsStorageAccess {
    /// The storage commands' `--json`: sorted keys, ISO 8601 times.
    public static func printJSON<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// `assist settings show [KEY]`: every setting, or one, with its value and what it accepts.
    public static func showSettings(key: String?, json: Bool) throws {
        let database = try open()
        let store = SettingsStore(database: database, validator: validator())
        let settings = try store.current()
        let definitions = try key.map { [try SettingsSchema.definition(for: $0)] } ?? SettingsSchema.definitions
        let entries = definitions.map { SettingEntry($0, in: settings, validator: store.validator) }
        if json {
            if key != nil { try printJSON(entries[0]) } else { try printJSON(entries) }
            return
        }
        entries.forEach { print($0.description) }
    }

    /// `assist settings set KEY VALUE`: a value that is not allowed is `SettingRefused` and nothing is stored.
    public static func setSetting(_ key: String, to value: String, json: Bool) throws {
        let database = try open(toChange: true)
        let store = SettingsStore(database: database, validator: validator())
        let settings: Storage.Settings
        do { settings = try store.set(key, text: value) } catch let error as StorageError where error.refusesValue {
            throw SettingRefused(reason: error)
        }
        let definition = try SettingsSchema.definition(for: key)
        if json {
            try printJSON([definition.key: definition.value(in: settings)])
        } else {
            print(definition.changedSentence(in: settings))
        }
    }

    /// `assist settings reset KEY` or, with nil, `--all`.
    public static func resetSettings(key: String?) throws {
        let store = SettingsStore(database: try open(toChange: true), validator: validator())
        if let key {
            let settings = try store.reset(key)
            let definition = try SettingsSchema.definition(for: key)
            print("\(definition.key) is back to its default, \(definition.value(in: settings).displayText).")
        } else {
            try store.resetAll()
            print("Every setting is back to its default.")
        }
    }

    /// `assist history list`: expired entries are purged first; one entry that does not open (changed
    /// on disk) is left out and counted, never the whole list.
    public static func printHistory(label: String?, since: String?, until: String?, search: String?, limit: Int?, json: Bool) throws {
        let database = try open()
        let history = DetectionHistory(database: database)
        // Purging is a write: on a disk that refuses writes the list is shown as stored, under
        // the one read-only sentence, rather than refused with a second one.
        if !database.isReadOnly { try history.purgeExpired() }
        let range = try HistoryTime.range(since: since, until: until)
        let query = HistoryQuery(label: label, since: range.since, until: range.until, text: search, limit: limit)
        let detections = try history.list(query)
        let unreadable = try history.unreadableCount()
        if unreadable > 0 {
            UserData.warn("\(unreadable == 1 ? "1 history entry cannot" : "\(unreadable) history entries cannot") be read (changed on disk) and \(unreadable == 1 ? "is" : "are") not shown.")
        }
        if json { try printJSON(detections); return }
        if detections.isEmpty { print("No detections match."); return }
        detections.forEach { print($0.listLine) }
    }

    /// `assist history recent`: prints the sentence said for "What did you detect recently?" (or it and
    /// the detections as JSON) and returns the sentence, to be spoken.
    public static func printRecentHistory(count: Int, json: Bool) throws -> String {
        let database = try open()
        let units = try SettingsStore(database: database, validator: validator()).current().units
        let (detections, sentence) = try DetectionHistory(database: database).recentReport(count, units: units)
        if json { try printJSON(RecentHistory(sentence: sentence, detections: detections)) } else { print(sentence) }
        return sentence
    }

    /// `assist history clear [--before TIME]`.
    public static func clearHistory(before: String?) throws {
        let history = DetectionHistory(database: try open(toChange: true))
        let deleted = try history.clear(before: try before.map { try HistoryTime.parse($0, bound: .before) })
        print(deleted == 1 ? "Deleted 1 detection." : "Deleted \(deleted) detections.")
    }
}

/// `assist history recent --json`.
struct RecentHistory: Encodable {
    var sentence: String
    var detections: [AnnouncedDetection]
}

/// A value typed for a setting that the setting does not allow (the user's input was wrong, not
/// the store); nothing was stored.
public struct SettingRefused: UserFacingError, Equatable {
    public let reason: StorageError
    public init(reason: StorageError) { self.reason = reason }
    public var userMessage: String { reason.userMessage }
}
