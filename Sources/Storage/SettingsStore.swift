import Foundation
import GRDB

/// One row of the `setting` table: a setting the user changed, its value as JSON text.
struct SettingRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "setting"
    var key: String
    var value: String
    var updatedAt: Double
}

/// The user's settings: read, changed one validated value at a time, reset, and watched.
///
/// Every change is validated first (type, range, known categories, cross-setting rules) and
/// stored in one transaction, so a refused value leaves nothing behind. Changes are visible to
/// every process at once, since they share the SQLite file.
public struct SettingsStore: Sendable {
    public let database: UserDatabase
    public let validator: SettingsValidator

    public init(database: UserDatabase, validator: SettingsValidator) {
        self.database = database
        self.validator = validator
    }

    /// The current settings: defaults overlaid with what the user changed.
    public func current() throws -> Settings {
        try database.read(Self.load)
    }

    /// The settings the user changed, by key, with their stored values.
    public func changedValues() throws -> [String: JSONValue] {
        try database.read { db in
            var values: [String: JSONValue] = [:]
            for row in try SettingRow.fetchAll(db) {
                if let value = try? JSONValue(jsonText: row.value) { values[row.key] = value }
            }
            return values
        }
    }

    /// Validates and stores `text` (as typed on the command line) for `key`.
    @discardableResult
    public func set(_ key: String, text: String) throws -> Settings {
        let definition = try SettingsSchema.definition(for: key)
        return try set(key, value: definition.parse(text: text))
    }

    /// Validates and stores a JSON value for `key`; returns the settings after the change.
    @discardableResult
    public func set(_ key: String, value: JSONValue) throws -> Settings {
        let definition = try SettingsSchema.definition(for: key)
        let normalized = try definition.validate(value, validator: validator)
        return try database.write { db in
            var settings = try Self.load(db)
            try definition.write(&settings, normalized)
            try SettingsSchema.checkConsistency(settings)
            try SettingRow(key: definition.key, value: normalized.jsonText, updatedAt: Date().timeIntervalSince1970).save(db)
            return settings
        }
    }

    /// Returns one setting to its default.
    @discardableResult
    public func reset(_ key: String) throws -> Settings {
        let definition = try SettingsSchema.definition(for: key)
        return try database.write { db in
            _ = try SettingRow.deleteOne(db, key: definition.key)
            let settings = try Self.load(db)
            try SettingsSchema.checkConsistency(settings)
            return settings
        }
    }

    /// Returns every setting to its default.
    public func resetAll() throws {
        try database.write { db in _ = try SettingRow.deleteAll(db) }
    }

    /// The current settings at once, then again after every change by any process, until the
    /// consumer stops iterating. A running `assist see` applies each one as it arrives.
    ///
    /// Implemented by polling `settingsRevision`, a one-row table the `setting` triggers bump:
    /// GRDB's `ValueObservation` sees only writes made through the same `DatabasePool`, and a
    /// settings change usually comes from another process (`assist settings set`). One indexed
    /// read every `pollInterval` (200 ms by default, well under the time a spoken sentence takes)
    /// costs nothing measurable.
    public func changes(pollInterval: Duration = .milliseconds(200)) -> AsyncStream<Settings> {
        let database = self.database
        return AsyncStream { continuation in
            let task = Task {
                var lastRevision: Int64 = -1
                var lastSettings: Settings?
                while !Task.isCancelled {
                    if let (revision, settings) = try? database.read({ db in
                        (try Int64.fetchOne(db, sql: "SELECT revision FROM settingsRevision") ?? 0, try Self.load(db))
                    }), revision != lastRevision {
                        lastRevision = revision
                        if settings != lastSettings {
                            lastSettings = settings
                            continuation.yield(settings)
                        }
                    }
                    try? await Task.sleep(for: pollInterval)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Defaults overlaid with stored rows. A row that no longer validates (a key from a newer
    /// version, a range tightened since) keeps its default rather than failing every reader.
    static func load(_ db: Database) throws -> Settings {
        var settings = Settings.defaults
        for row in try SettingRow.fetchAll(db) {
            guard let definition = try? SettingsSchema.definition(for: row.key),
                  let value = try? JSONValue(jsonText: row.value),
                  let normalized = try? definition.validate(value, validator: nil) else { continue }
            try? definition.write(&settings, normalized)
        }
        return settings
    }
}
