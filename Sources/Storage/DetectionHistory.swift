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

    /// Boundary check for values handed in by the detector pipeline.
    func validated() throws -> AnnouncedDetection {
        let label = self.label.trimmingCharacters(in: .whitespaces)
        guard !label.isEmpty, label.count <= 100 else {
            throw StorageError.invalidRecord(field: "label", allowed: "1 to 100 characters", given: "\"\(self.label)\"")
        }
        guard confidence.isFinite, (0...1).contains(confidence) else {
            throw StorageError.invalidRecord(field: "confidence", allowed: "a number from 0 to 1", given: "\(confidence)")
        }
        if let distanceMeters, !(distanceMeters.isFinite && distanceMeters >= 0) {
            throw StorageError.invalidRecord(field: "distanceMeters", allowed: "a distance of 0 meters or more", given: "\(distanceMeters)")
        }
        guard announcedAt.timeIntervalSince1970.isFinite else {
            throw StorageError.invalidRecord(field: "announcedAt", allowed: "a valid time", given: "\(announcedAt)")
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
        let rows = try detections.map { try seal($0.validated()) }
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
        return try rows.reversed().map(open)
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
        var matches = try rows.map(open)
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

    /// How many detections are stored.
    public func count() throws -> Int {
        try database.read { db in try DetectionRow.fetchCount(db) }
    }

    /// Deletes every detection, or those announced before `before`; returns how many.
    @discardableResult
    public func clear(before: Date? = nil) throws -> Int {
        try database.write { db in
            if let before {
                return try DetectionRow.filter(Column("announcedAt") < before.timeIntervalSince1970).deleteAll(db)
            }
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
        return AnnouncedDetection(label: payload.label, confidence: payload.confidence, direction: payload.direction,
                                  distanceMeters: payload.distanceMeters, mode: payload.mode,
                                  announcedAt: Date(timeIntervalSince1970: row.announcedAt))
    }

    /// Binds a sealed payload to its timestamp, so editing a row's time on disk is detected.
    private static func context(_ time: Double) -> Data {
        Data("assistivekit.detection.v1|\(time.bitPattern)".utf8)
    }
}
