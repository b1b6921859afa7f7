import Foundation
import GRDB
import Testing
import AssistCore
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

    @Test("the recent-detections answer is the newest entries and the sentence said for them, the same for the command line and the spoken command")
    func recentReport() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let history = DetectionHistory(database: try storage.open())
        try history.record(detection("person", 0.87, at: Date()))
        try history.record(detection("car", 0.64, direction: "on the left", meters: 5, at: Date()))
        let report = try history.recentReport(1, units: .metric)
        #expect(report.detections.map(\.label) == ["car"])
        #expect(report.sentence == SpokenReport.recentDetections(report.detections, units: .metric))
        #expect(report.sentence == "Recently: car on the left, 5 meters, 64 percent sure.")
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

    @Test("a lost key is said once; older rows are kept aside, not mixed, and come back with the old key")
    func lostKey() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        do {
            let database = try storage.open()
            #expect(database.keyRecovery == nil)
            try DetectionHistory(database: database).record([detection("car", at: referenceNow), detection("dog", at: referenceNow)],
                                                            now: referenceNow)
            try database.close()
        }
        let oldKey = try Data(contentsOf: storage.location.keyFile)
        try FileManager.default.removeItem(at: storage.location.keyFile)
        do {
            let database = try storage.open()
            let recovery = try #require(database.keyRecovery)
            #expect(recovery.setAside == 2 && recovery.restored == 0)
            #expect(recovery.userMessage.contains("2 earlier history entries") && recovery.userMessage.contains("kept aside"))
            let history = DetectionHistory(database: database)
            #expect(try history.recent().isEmpty)
            try history.record(detection("bus", at: referenceNow.addingTimeInterval(1)), now: referenceNow.addingTimeInterval(1))
            #expect(try history.list().map(\.label) == ["bus"])
            try database.close()
        }
        // Said once: the next opening finds the key it recorded.
        do {
            let database = try storage.open()
            #expect(database.keyRecovery == nil)
            try database.close()
        }
        // The old key put back: its rows return, and the new key's row is kept aside in turn.
        try FileManager.default.removeItem(at: storage.location.keyFile)
        try oldKey.write(to: storage.location.keyFile)
        let database = try storage.open()
        let recovery = try #require(database.keyRecovery)
        #expect(recovery.restored == 2 && recovery.setAside == 1)
        #expect(try DetectionHistory(database: database).list().map(\.label).sorted() == ["car", "dog"])
    }

    @Test("a storage key readable by others is narrowed back to 0600")
    func keyPermissions() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        try storage.open().close()
        chmod(storage.location.keyFile.path, 0o644)
        _ = try storage.open()
        let mode = try FileManager.default.attributesOfItem(atPath: storage.location.keyFile.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("a detection moved to another time on disk is left out; it never hides the others")
    func movedRow() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let database = try storage.open()
        let history = DetectionHistory(database: database)
        try history.record(detection("car", at: referenceNow), now: referenceNow)
        try database.pool.write { db in try db.execute(sql: "UPDATE detection SET announcedAt = announcedAt - 5") }
        try history.record(detection("dog", at: referenceNow.addingTimeInterval(1)), now: referenceNow.addingTimeInterval(1))
        #expect(try history.recent().map(\.label) == ["dog"])
        #expect(try history.list().map(\.label) == ["dog"])
        #expect(try history.unreadableCount() == 1)
    }

    @Test("imported entries must be printable text of bounded length and not dated in the future",
          arguments: ["\u{1B}[2J\u{1B}[31mPWNED\u{1B}[0m\nfake line", "car\r", "a\u{202E}b", String(repeating: "x", count: 101)])
    func hostileLabels(label: String) throws {
        guard case .invalidRecord(let field, _, let given)? = storageError({
            _ = try detection(label, at: referenceNow).validated(now: referenceNow)
        }) else { Issue.record("\(label.debugDescription) was accepted"); return }
        #expect(field == "label")
        #expect(given.isPrintable)
    }

    @Test("an entry dated in the future is refused; one a few seconds ahead (clock skew) is not")
    func futureDates() throws {
        guard case .invalidRecord(let field, _, _)? = storageError({
            _ = try detection("car", at: referenceNow.addingTimeInterval(86_400 * 365 * 74)).validated(now: referenceNow)
        }) else { Issue.record("a date in 2100 was accepted"); return }
        #expect(field == "announcedAt")
        _ = try detection("car", at: referenceNow.addingTimeInterval(30)).validated(now: referenceNow)
    }

    @Test("a row stored with control characters before validation is handed on without them")
    func storedControlCharacters() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let database = try storage.open()
        let history = DetectionHistory(database: database)
        // Sealed directly, as an older version would have stored it.
        let row = try history.seal(detection("\u{1B}[2Jcar\nfake", at: referenceNow))
        try database.pool.write { db in try row.insert(db) }
        let label = try #require(try history.list().first?.label)
        #expect(label.isPrintable && label.contains("car"))
        #expect(SpokenReport.recentDetections(try history.recent(), units: .metric).isPrintable)
    }
}
