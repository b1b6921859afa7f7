import Foundation
import GRDB
import Testing
@testable import Storage

@Suite("Detection history")
struct DetectionHistoryTests {
    @Test("the last 10 detections come back oldest first, and are spoken in that order with their confidence")
    func recentTen() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let history = DetectionHistory(database: try storage.open())
        let labels = ["person", "car", "dog", "chair", "bus", "cat", "bench", "truck", "bicycle", "cup", "bottle", "tv"]
        for (index, label) in labels.enumerated() {
            try history.record(detection(label, 0.5 + Double(index) / 100, at: referenceNow.addingTimeInterval(Double(index))),
                               now: referenceNow.addingTimeInterval(20))
        }
        let recent = try history.recent()
        #expect(recent.map(\.label) == Array(labels.suffix(10)))
        let sentence = SpokenReport.recentDetections(Array(recent.suffix(2)), units: .metric)
        #expect(sentence == "The last 2 detections, oldest first: bottle ahead, 2 meters, 60 percent sure; tv ahead, 2 meters, 61 percent sure.")
        #expect(SpokenReport.recentDetections([], units: .metric) == "Nothing has been detected recently.")
        let imperial = SpokenReport.recentDetections([detection("door", 0.9, direction: "on the left", meters: 3, at: referenceNow)], units: .imperial)
        #expect(imperial == "Recently: door on the left, 10 feet, 90 percent sure.")
    }

    @Test("history is listed by label, by time, by text search and with a limit")
    func filters() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let history = DetectionHistory(database: try storage.open())
        try history.record([
            detection("person", direction: "ahead", at: referenceNow.addingTimeInterval(-3600)),
            detection("car", direction: "on the left", mode: "navigation", at: referenceNow.addingTimeInterval(-1800)),
            detection("person", direction: "on the right", at: referenceNow.addingTimeInterval(-600)),
            detection("dog", direction: "ahead", at: referenceNow.addingTimeInterval(-60)),
        ], now: referenceNow)
        #expect(try history.list().count == 4)
        #expect(try history.list(HistoryQuery(label: "Person")).map(\.direction) == ["ahead", "on the right"])
        #expect(try history.list(HistoryQuery(since: referenceNow.addingTimeInterval(-1800))).map(\.label) == ["car", "person", "dog"])
        #expect(try history.list(HistoryQuery(since: referenceNow.addingTimeInterval(-3600), until: referenceNow.addingTimeInterval(-600))).map(\.label) == ["person", "car"])
        #expect(try history.list(HistoryQuery(text: "left")).map(\.label) == ["car"])
        #expect(try history.list(HistoryQuery(text: "navig")).map(\.label) == ["car"])
        #expect(try history.list(HistoryQuery(label: "person", limit: 1)).map(\.direction) == ["on the right"])
        #expect(try history.list().first == detection("person", direction: "ahead", at: referenceNow.addingTimeInterval(-3600)))
    }

    @Test("retention deletes what is older than the limit and nothing else")
    func retention() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let database = try storage.open()
        let history = DetectionHistory(database: database)
        let day = 24.0 * 3600
        // Recorded with an early "now" so nothing is purged on the way in.
        try history.record([
            detection("bus", at: referenceNow.addingTimeInterval(-day - 3600)),
            detection("car", at: referenceNow.addingTimeInterval(-day - 1)),
            detection("dog", at: referenceNow.addingTimeInterval(-day)),
            detection("cat", at: referenceNow.addingTimeInterval(-day + 1)),
            detection("cup", at: referenceNow),
        ], now: referenceNow.addingTimeInterval(-day))
        #expect(try history.count() == 5)
        #expect(try history.purgeExpired(now: referenceNow) == 2)
        #expect(try history.list().map(\.label) == ["dog", "cat", "cup"])

        // A shorter retention applies to the next purge, which recording triggers by itself.
        try settingsStore(database).set("historyRetentionHours", text: "1")
        try history.record(detection("tv", at: referenceNow), now: referenceNow)
        #expect(try history.list().map(\.label) == ["cup", "tv"])
    }

    @Test("clearing deletes everything, or only what is older than a time")
    func clear() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let history = DetectionHistory(database: try storage.open())
        try history.record([detection("a", at: referenceNow.addingTimeInterval(-100)), detection("b", at: referenceNow)], now: referenceNow)
        #expect(try history.clear(before: referenceNow.addingTimeInterval(-50)) == 1)
        #expect(try history.list().map(\.label) == ["b"])
        #expect(try history.clear() == 1)
        #expect(try history.count() == 0)
    }

    @Test("a detection with an impossible value is refused with the field named, and nothing is stored")
    func invalidDetection() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let history = DetectionHistory(database: try storage.open())
        guard case .invalidRecord("confidence", _, _)? = storageError({
            try history.record([detection("car", at: referenceNow), detection("dog", 1.2, at: referenceNow)], now: referenceNow)
        }) else { Issue.record("expected invalidRecord(confidence)"); return }
        guard case .invalidRecord("distanceMeters", _, _)? = storageError({
            try history.record(detection("car", meters: -1, at: referenceNow), now: referenceNow)
        }) else { Issue.record("expected invalidRecord(distanceMeters)"); return }
        guard case .invalidRecord("label", _, _)? = storageError({
            try history.record(detection("  ", at: referenceNow), now: referenceNow)
        }) else { Issue.record("expected invalidRecord(label)"); return }
        #expect(try history.count() == 0)
    }

    @Test("the database files hold no label or direction in plain text, while settings text is findable the same way")
    func noPlainLabels() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let database = try storage.open()
        // The control: settings are stored in clear, so the same byte search must find this.
        try settingsStore(database).set("camera.device", text: "camera-control-marker")
        let history = DetectionHistory(database: database)
        try history.record((0..<50).map {
            detection("giraffe", direction: "beside the staircase", mode: "navigation", at: referenceNow.addingTimeInterval(Double($0)))
        }, now: referenceNow)
        func allBytes() throws -> Data { try storage.databaseFiles.reduce(into: Data()) { $0.append(try Data(contentsOf: $1)) } }
        func contains(_ text: String, _ bytes: Data) -> Bool { bytes.range(of: Data(text.utf8)) != nil }

        let whileOpen = try allBytes()       // WAL still holds the fresh pages
        #expect(contains("camera-control-marker", whileOpen))
        #expect(!contains("giraffe", whileOpen))
        #expect(!contains("staircase", whileOpen))
        try database.close()                 // checkpointed into the main file
        let afterClose = try allBytes()
        #expect(contains("camera-control-marker", afterClose))
        #expect(!contains("giraffe", afterClose))
        #expect(!contains("staircase", afterClose))
        #expect(try DetectionHistory(database: try storage.open()).recent(1).first?.label == "giraffe")
    }

    @Test("the history table has no column that could hold an image, and each sealed row is the size of a sentence")
    func noImageData() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let database = try storage.open()
        try DetectionHistory(database: database).record(detection("person", direction: String(repeating: "x", count: 60), at: referenceNow), now: referenceNow)
        let (columns, largest) = try database.pool.read { db in
            (try db.columns(in: "detection").map(\.name),
             try Int.fetchOne(db, sql: "SELECT max(length(sealed)) FROM detection") ?? 0)
        }
        #expect(columns == ["id", "announcedAt", "sealed"])
        #expect(largest < 512)
    }

    @Test("history sealed with another key is reported as such, not returned as garbage")
    func otherKey() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        do {
            let database = try storage.open()
            try DetectionHistory(database: database).record(detection("car", at: referenceNow), now: referenceNow)
            try database.close()
        }
        try FileManager.default.removeItem(at: storage.location.keyFile)
        let history = DetectionHistory(database: try storage.open())
        guard case .historyKeyMismatch? = storageError({ _ = try history.recent() }) else {
            Issue.record("expected historyKeyMismatch")
            return
        }
        try history.clear()
        try history.record(detection("bus", at: referenceNow), now: referenceNow)
        #expect(try history.recent().map(\.label) == ["bus"])
    }

    @Test("a detection moved to another time on disk fails its integrity check")
    func movedRow() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let database = try storage.open()
        let history = DetectionHistory(database: database)
        try history.record(detection("car", at: referenceNow), now: referenceNow)
        try database.pool.write { db in try db.execute(sql: "UPDATE detection SET announcedAt = announcedAt - 5") }
        guard case .historyKeyMismatch? = storageError({ _ = try history.recent() }) else {
            Issue.record("expected the edited row to be refused")
            return
        }
    }
}
