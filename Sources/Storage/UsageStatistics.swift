import AssistCore
import Foundation
import GRDB

/// One session of use: a mode from start to finish, what it did, and the battery it took.
public struct UsageSession: Codable, Equatable, Sendable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "usageSession"
    // Times as seconds since 1970 (REAL), not GRDB's default text, so SQL compares them with
    // the numeric bounds of a period and keeps sub-millisecond precision.
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }

    public var id: Int64?
    public var mode: String
    public var startedAt: Date
    /// The last progress report; the session's end if it was never finished (a crash).
    public var lastActiveAt: Date
    public var endedAt: Date?
    public var frames: Int
    public var objectsAnnounced: Int
    /// Percentage points of battery used, where the platform reports a battery.
    public var batteryUsedPercent: Double?

    public var durationSeconds: Double {
        max(0, (endedAt ?? lastActiveAt).timeIntervalSince(startedAt))
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A mode's totals over a period.
public struct ModeUsage: Codable, Equatable, Sendable {
    public var mode: String
    public var sessions: Int
    public var durationSeconds: Double
    public var frames: Int
    public var objectsAnnounced: Int
    /// Sum over the sessions that reported a battery; nil when none did.
    public var batteryUsedPercent: Double?
}

/// Usage over a period, mode by mode, most used first.
public struct UsageSummary: Codable, Equatable, Sendable {
    public var from: Date
    public var to: Date
    public var modes: [ModeUsage]

    public var totalDurationSeconds: Double { modes.reduce(0) { $0 + $1.durationSeconds } }
    public var totalObjectsAnnounced: Int { modes.reduce(0) { $0 + $1.objectsAnnounced } }
}

/// Records sessions as they run and sums them for "Show my usage stats".
public struct UsageStatistics: Sendable {
    public let database: UserDatabase

    public init(database: UserDatabase) {
        self.database = database
    }

    /// Opens a session; report progress with `recordProgress` and close it with `finish`.
    public func start(mode: String, at time: Date = Date()) throws -> Int64 {
        guard !mode.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw StorageError.invalidRecord(field: "mode", allowed: "a scanning mode name", given: "\"\(mode)\"")
        }
        return try database.write { db in
            var session = UsageSession(id: nil, mode: mode, startedAt: time, lastActiveAt: time, endedAt: nil,
                                       frames: 0, objectsAnnounced: 0, batteryUsedPercent: nil)
            try session.insert(db)
            return session.id!
        }
    }

    /// Adds frames and announced objects to a running session. Called every few seconds, it
    /// bounds what a crash loses to that much.
    public func recordProgress(session id: Int64, addingFrames frames: Int, objectsAnnounced objects: Int, at time: Date = Date()) throws {
        guard frames >= 0 else { throw StorageError.invalidRecord(field: "frames", allowed: "0 or more", given: "\(frames)") }
        guard objects >= 0 else { throw StorageError.invalidRecord(field: "objectsAnnounced", allowed: "0 or more", given: "\(objects)") }
        try database.write { db in
            try db.execute(sql: """
                UPDATE usageSession SET frames = frames + ?, objectsAnnounced = objectsAnnounced + ?,
                    lastActiveAt = max(lastActiveAt, ?) WHERE id = ?
                """, arguments: [frames, objects, time.timeIntervalSince1970, id])
        }
    }

    /// Closes a session, with the battery it used where known.
    public func finish(session id: Int64, at time: Date = Date(), batteryUsedPercent: Double? = nil) throws {
        if let battery = batteryUsedPercent, !(battery.isFinite && (0...100).contains(battery)) {
            throw StorageError.invalidRecord(field: "batteryUsedPercent", allowed: "a number from 0 to 100", given: "\(battery)")
        }
        try database.write { db in
            try db.execute(sql: """
                UPDATE usageSession SET endedAt = ?, lastActiveAt = max(lastActiveAt, ?), batteryUsedPercent = ? WHERE id = ?
                """, arguments: [time.timeIntervalSince1970, time.timeIntervalSince1970, batteryUsedPercent, id])
        }
    }

    /// Sessions that started in [from, to), oldest first.
    public func sessions(from: Date, to: Date) throws -> [UsageSession] {
        try database.read { db in
            try UsageSession
                .filter(Column("startedAt") >= from.timeIntervalSince1970 && Column("startedAt") < to.timeIntervalSince1970)
                .order(Column("startedAt"))
                .fetchAll(db)
        }
    }

    /// Totals per mode for sessions that started in [from, to).
    public func summary(from: Date, to: Date) throws -> UsageSummary {
        var byMode: [String: ModeUsage] = [:]
        for session in try sessions(from: from, to: to) {
            let mode = Self.modeName(stored: session.mode)
            var usage = byMode[mode]
                ?? ModeUsage(mode: mode, sessions: 0, durationSeconds: 0, frames: 0, objectsAnnounced: 0, batteryUsedPercent: nil)
            usage.sessions += 1
            usage.durationSeconds += session.durationSeconds
            usage.frames += session.frames
            usage.objectsAnnounced += session.objectsAnnounced
            if let battery = session.batteryUsedPercent { usage.batteryUsedPercent = (usage.batteryUsedPercent ?? 0) + battery }
            byMode[mode] = usage
        }
        let modes = byMode.values.sorted { $0.durationSeconds != $1.durationSeconds ? $0.durationSeconds > $1.durationSeconds : $0.mode < $1.mode }
        return UsageSummary(from: from, to: to, modes: modes)
    }

    /// A recorded mode's name now: sessions recorded before the names were one are stored as
    /// "live continuous" or "navigation"; other activities ("picture description") stay as stored.
    static func modeName(stored: String) -> String {
        let name = stored.hasPrefix("live ") ? String(stored.dropFirst("live ".count)) : stored
        return Mode(name: name)?.name ?? stored
    }

    /// Today's totals, midnight to midnight in `calendar`'s time zone.
    public func today(now: Date = Date(), calendar: Calendar = .current) throws -> UsageSummary {
        let start = calendar.startOfDay(for: now)
        let end = calendar.date(byAdding: .day, value: 1, to: start)!
        return try summary(from: start, to: end)
    }
}
