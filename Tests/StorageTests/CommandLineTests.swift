import Foundation
import TestSupport
import Testing
@testable import Storage

/// These run the real `assist` executable as a second process on the same files.
@Suite("assist settings, history, stats and backup as separate processes")
struct CommandLineTests {
    @Test("a setting changed by another process is seen here at once, by a running observer, and after a restart")
    func otherProcessWrites() async throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let store = settingsStore(try storage.open())
        var changes = store.changes(pollInterval: .milliseconds(20)).makeAsyncIterator()
        #expect(await changes.next() == Settings.defaults)

        let result = try AssistBinary.run(["settings", "set", "speech.rateWordsPerMinute", "230"], environment: storage.environment)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "speech.rateWordsPerMinute is now 230.\n")
        #expect(try store.current().speech.rateWordsPerMinute == 230)
        #expect(await changes.next()?.speech.rateWordsPerMinute == 230)
        #expect(try settingsStore(try storage.open()).current().speech.rateWordsPerMinute == 230)
    }

    @Test("a setting changed here is seen by another process")
    func otherProcessReads() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        try settingsStore(try storage.open()).set("detection.maximumObjects", text: "9")
        let result = try AssistBinary.run(["settings", "show", "detection.maximumObjects", "--json"], environment: storage.environment)
        #expect(result.status == 0, "\(result.standardError)")
        let entry = try JSONDecoder().decode([String: JSONValue].self, from: Data(result.standardOutput.utf8))
        #expect(entry["value"] == .number(9))
        #expect(entry["changed"] == .bool(true))
    }

    @Test("an invalid value on the command line exits non-zero with one sentence naming the field, and stores nothing")
    func invalidValue() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let result = try AssistBinary.run(["settings", "set", "detection.confidenceThreshold", "high"], environment: storage.environment)
        #expect(result.status != 0)
        #expect(result.standardError ==
                "The setting detection.confidenceThreshold must be a number from 0.05 to 0.95; \"high\" is not allowed, so nothing was changed.\n")
        #expect(try settingsStore(try storage.open()).changedValues().isEmpty)
    }

    @Test("history, stats and backup work end to end from the command line")
    func endToEnd() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let database = try storage.open()
        try DetectionHistory(database: database).record([detection("person", 0.87, at: Date().addingTimeInterval(-5)),
                                                         detection("car", 0.64, direction: "on the left", meters: 5, at: Date())])
        let statistics = UsageStatistics(database: database)
        // Ten minutes at yesterday's noon: a session ten minutes before now would fall on yesterday
        // when the test runs just after midnight.
        let noonYesterday = Calendar.current.date(byAdding: .hour, value: -12, to: Calendar.current.startOfDay(for: Date()))!
        let session = try statistics.start(mode: "continuous", at: noonYesterday)
        try statistics.recordProgress(session: session, addingFrames: 600, objectsAnnounced: 2, at: noonYesterday.addingTimeInterval(300))
        try statistics.finish(session: session, at: noonYesterday.addingTimeInterval(600))

        let recent = try AssistBinary.run(["history", "recent"], environment: storage.environment)
        #expect(recent.standardOutput ==
                "The last 2 detections, oldest first: person ahead, 2 meters, 87 percent sure; car on the left, 5 meters, 64 percent sure.\n")
        let listed = try AssistBinary.run(["history", "--label", "car", "--since", "1h", "--json"], environment: storage.environment)
        #expect(listed.status == 0, "\(listed.standardError)")
        #expect(listed.standardOutput.contains("\"label\" : \"car\"") && !listed.standardOutput.contains("person"))
        let stats = try AssistBinary.run(["stats", "--day", "yesterday"], environment: storage.environment)
        #expect(stats.standardOutput.hasPrefix("Yesterday you used continuous detection for 10 minutes and 2 objects were announced.\n"),
                "\(stats.standardOutput)")

        var environment = storage.environment
        environment["ASSIST_BACKUP_PASSPHRASE"] = passphrase
        let file = storage.root.appendingPathComponent("backup.akb").path
        try settingsStore(database).set("units", text: "imperial")
        let exported = try AssistBinary.run(["backup", "export", file, "--include-history"], environment: environment)
        #expect(exported.standardOutput == "Exported 1 changed setting and 2 history entries to \(file).\n", "\(exported.standardError)")
        let cleared = try AssistBinary.run(["history", "clear"], environment: storage.environment)
        #expect(cleared.standardOutput == "Deleted 2 detections.\n")
        try settingsStore(database).resetAll()
        let imported = try AssistBinary.run(["backup", "import", file], environment: environment)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(try settingsStore(database).current().units == .imperial)
        #expect(try DetectionHistory(database: database).count() == 2)

        environment["ASSIST_BACKUP_PASSPHRASE"] = "not the passphrase"
        let refused = try AssistBinary.run(["backup", "import", file], environment: environment)
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("failed its integrity check"))
    }

    @Test("a damaged database is reported by the next command once, which still succeeds with defaults")
    func damagedFileToldOnce() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let database = try storage.open()
        try settingsStore(database).set("speech.pitch", text: "70")
        try database.close()
        try Data(repeating: 0x42, count: 8192).write(to: storage.location.databaseFile)

        let first = try AssistBinary.run(["settings", "show", "speech.pitch"], environment: storage.environment)
        #expect(first.status == 0)
        #expect(first.standardOutput.hasPrefix("speech.pitch = 50\n"))
        #expect(first.standardError.hasPrefix("Your AssistiveKit data file was damaged, so it was moved to \(storage.location.databaseFile.path).damaged-"))
        #expect(first.standardError.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1)
        let second = try AssistBinary.run(["settings", "show", "speech.pitch"], environment: storage.environment)
        #expect(second.status == 0)
        #expect(second.standardError.isEmpty)
    }
}
