import AssistCore
import Foundation
import GRDB

/// One announced detection, as the user heard it. Never an image: only what was said.
public struct AnnouncedDetection: Codable, Equatable, Sendable {
    /// The category as spoken ("person", "car").
    public var label: String
    /// The detector's confidence, 0 to 1.
    public var confidence: Double
    /// Where, as spoken ("ahead", "on the left", "at 2 o'clock").
    public var direction: String
    /// Estimated distance, when known.
    public var distanceMeters: Double?
    /// The scanning mode it was announced in (continuous, on-demand, navigation).
    public var mode: String
    public var announcedAt: Date

    public init(label: String, confidence: Double, direction: String, distanceMeters: Double?, mode: String, announcedAt: Date) {
        self.label = label
        self.confidence = confidence
        self.direction = direction
        self.distanceMeters = distanceMeters
        self.mode = mode
        self.announcedAt = announcedAt
    }

    /// How far ahead of this machine's clock an entry may be dated (another device's clock
    /// running a little fast); anything later would never expire.
    static let allowedClockSkewSeconds = 300.0

    /// Boundary check for values handed in by the detector pipeline or read from a backup:
    /// printable text of bounded length (an escape sequence in a label would be printed raw by
    /// `history list`), numbers in range, and a time not in the future.
    func validated(now: Date = Date()) throws -> AnnouncedDetection {
        let label = self.label.trimmingCharacters(in: .whitespaces)
        guard !label.isEmpty, label.count <= 100, label.isPrintable else {
            throw StorageError.invalidRecord(field: "label", allowed: "1 to 100 printable characters",
                                             given: "\"\(self.label.withoutControlCharacters.prefix(100))\"")
        }
        for (field, text) in [("direction", direction), ("mode", mode)] where text.count > 100 || !text.isPrintable {
            throw StorageError.invalidRecord(field: field, allowed: "up to 100 printable characters",
                                             given: "\"\(text.withoutControlCharacters.prefix(100))\"")
        }
        guard announcedAt.timeIntervalSince1970.isFinite,
              announcedAt.timeIntervalSince(now) <= Self.allowedClockSkewSeconds else {
            throw StorageError.invalidRecord(field: "announcedAt", allowed: "a time that is not in the future", given: "\(announcedAt)")
        }
        guard confidence.isFinite, (0...1).contains(confidence) else {
            throw StorageError.invalidRecord(field: "confidence", allowed: "a number from 0 to 1", given: "\(confidence)")
        }
        if let distanceMeters, !(distanceMeters.isFinite && distanceMeters >= 0) {
            throw StorageError.invalidRecord(field: "distanceMeters", allowed: "a distance of 0 meters or more", given: "\(distanceMeters)")
        }
        var copy = self
        copy.label = label
        return copy
    }
}

/// What `DetectionHistory.list` returns: all filters optional and combined with "and".
public struct HistoryQuery: Sendable, Equatable {
    /// Exact category, case-insensitive.
    public var label: String?
    /// Inclusive lower bound on the announcement time.
    public var since: Date?
    /// Exclusive upper bound on the announcement time.
    public var until: Date?
    /// Case-insensitive substring of the label, direction or mode.
    public var text: String?
    /// The newest `limit` matches (still returned oldest first).
    public var limit: Int?

    public init(label: String? = nil, since: Date? = nil, until: Date? = nil, text: String? = nil, limit: Int? = nil) {
        self.label = label
        self.since = since
        self.until = until
        self.text = text
        self.limit = limit
    }
}

/// A row of the `detection` table. Only the time is clear; the rest is the sealed JSON of
/// `SealedDetection`, so the file never holds a label in plain text.
struct DetectionRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "detection"
    var id: Int64?
    var announcedAt: Double
    var sealed: Data

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

private struct SealedDetection: Codable {
    var label: String
    var confidence: Double
    var direction: String
    var distanceMeters: Double?
    var mode: String
}

/// Every announced detection, encrypted, kept for the retention the user set (24 h by default)
/// and purged automatically whenever a detection is recorded.
public struct DetectionHistory: Sendable {
    public let database: UserDatabase

    public init(database: UserDatabase) {
        self.database = database
    }

    /// Stores one detection, then deletes what is older than the retention.
    public func record(_ detection: AnnouncedDetection, now: Date = Date()) throws {
        try record([detection], now: now)
    }

    /// Stores several detections in one transaction (all or none), then applies the retention.
    public func record(_ detections: [AnnouncedDetection], now: Date = Date()) throws {
        // "The future" is judged by the later of the given time (a test clock, the purge's
        // reference) and this machine's clock, so neither can make a present entry look future.
        let latest = max(now, Date())
        let rows = try detections.map { try seal($0.validated(now: latest)) }
        try database.write { db in
            for row in rows { try row.insert(db) }
            try Self.purge(db, now: now)
        }
    }

    /// The last `count` detections, oldest first, as "What did you detect recently?" speaks them.
    public func recent(_ count: Int = 10) throws -> [AnnouncedDetection] {
        let rows = try database.read { db in
            try DetectionRow.order(Column("announcedAt").desc, Column("id").desc).limit(count).fetchAll(db)
        }
        return rows.reversed().compactMap { try? open($0) }
    }

    /// Detections matching `query`, oldest first. Times are filtered in SQL; label and text
    /// after decryption, since they are sealed (history is at most the retention's worth).
    public func list(_ query: HistoryQuery = HistoryQuery()) throws -> [AnnouncedDetection] {
        let rows = try database.read { db in
            var request = DetectionRow.order(Column("announcedAt"), Column("id"))
            if let since = query.since { request = request.filter(Column("announcedAt") >= since.timeIntervalSince1970) }
            if let until = query.until { request = request.filter(Column("announcedAt") < until.timeIntervalSince1970) }
            return try request.fetchAll(db)
        }
        // A row that does not open (edited on disk, sealed with another key) is left out rather
        // than hiding every other entry; `unreadableCount` says how many there are.
        var matches = rows.compactMap { try? open($0) }
        if let label = query.label?.lowercased() {
            matches = matches.filter { $0.label.lowercased() == label }
        }
        if let text = query.text?.lowercased(), !text.isEmpty {
            matches = matches.filter {
                $0.label.lowercased().contains(text) || $0.direction.lowercased().contains(text) || $0.mode.lowercased().contains(text)
            }
        }
        if let limit = query.limit { matches = Array(matches.suffix(max(0, limit))) }
        return matches
    }

    /// How many stored detections cannot be opened with the current key (edited on disk).
    /// Rows of a lost key are not counted here: they are kept aside (see `UserDatabase.keyRecovery`).
    public func unreadableCount() throws -> Int {
        let rows = try database.read { db in try DetectionRow.fetchAll(db) }
        return rows.filter { (try? open($0)) == nil }.count
    }

    /// How many detections are stored.
    public func count() throws -> Int {
        try database.read { db in try DetectionRow.fetchCount(db) }
    }

    /// Deletes every detection, or those announced before `before`; returns how many.
    @discardableResult
    public func clear(before: Date? = nil) throws -> Int {
        try database.write { db in
            if let before {
                try db.execute(sql: "DELETE FROM detectionSetAside WHERE announcedAt < ?", arguments: [before.timeIntervalSince1970])
                return try DetectionRow.filter(Column("announcedAt") < before.timeIntervalSince1970).deleteAll(db)
            }
            try db.execute(sql: "DELETE FROM detectionSetAside")
            return try DetectionRow.deleteAll(db)
        }
    }

    /// Deletes detections older than the retention setting; returns how many.
    @discardableResult
    public func purgeExpired(now: Date = Date()) throws -> Int {
        try database.write { db in try Self.purge(db, now: now) }
    }

    /// Strictly older than the limit goes; a detection exactly at the limit stays.
    @discardableResult
    static func purge(_ db: Database, now: Date) throws -> Int {
        let retentionSeconds = try SettingsStore.load(db).historyRetentionHours * 3600
        let cutoff = now.timeIntervalSince1970 - retentionSeconds
        // Entries kept aside after a key change expire like the others.
        try db.execute(sql: "DELETE FROM detectionSetAside WHERE announcedAt < ?", arguments: [cutoff])
        return try DetectionRow.filter(Column("announcedAt") < cutoff).deleteAll(db)
    }

    func seal(_ detection: AnnouncedDetection) throws -> DetectionRow {
        let time = detection.announcedAt.timeIntervalSince1970
        let payload = SealedDetection(label: detection.label, confidence: detection.confidence, direction: detection.direction,
                                      distanceMeters: detection.distanceMeters, mode: detection.mode)
        let sealed = try database.cipher.seal(try JSONEncoder().encode(payload), context: Self.context(time))
        return DetectionRow(id: nil, announcedAt: time, sealed: sealed)
    }

    func open(_ row: DetectionRow) throws -> AnnouncedDetection {
        let data = try database.cipher.open(row.sealed, context: Self.context(row.announcedAt))
        let payload = try JSONDecoder().decode(SealedDetection.self, from: data)
        // Rows stored before labels were validated may hold control characters; they are never
        // handed on to be printed or spoken as they are.
        return AnnouncedDetection(label: payload.label.withoutControlCharacters, confidence: payload.confidence,
                                  direction: payload.direction.withoutControlCharacters,
                                  distanceMeters: payload.distanceMeters, mode: payload.mode.withoutControlCharacters,
                                  announcedAt: Date(timeIntervalSince1970: row.announcedAt))
    }

    /// Binds a sealed payload to its timestamp, so editing a row's time on disk is detected.
    static func context(_ time: Double) -> Data {
        Data("assistivekit.detection.v1|\(time.bitPattern)".utf8)
    }
}
