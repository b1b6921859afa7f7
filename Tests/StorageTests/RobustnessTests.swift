import Foundation
import GRDB
import TestSupport
import Testing
@testable import Storage

/// Errors collected from several threads.
final class FailureLog: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []
    func append(_ entry: String) { lock.withLock { collected.append(entry) } }
    var entries: [String] { lock.withLock { collected } }
}

@Suite("Robustness")
struct RobustnessTests {
    enum Damage: String, CaseIterable {
        case headerOverwritten, pagesOverwritten, truncated
    }

    @Test("a damaged database file is detected, moved aside, defaults restored, and the user told once",
          arguments: Damage.allCases)
    func damagedFile(damage: Damage) throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        do {
            let database = try storage.open()
            try settingsStore(database).set("speech.pitch", text: "80")
            try DetectionHistory(database: database).record((0..<300).map { detection("car", at: Date().addingTimeInterval(Double($0) / 1000)) })
            try database.close()
        }
        let file = storage.location.databaseFile
        var bytes = try Data(contentsOf: file)
        #expect(bytes.count > 8 * 4096)
        switch damage {
        case .headerOverwritten:
            bytes.replaceSubrange(0..<100, with: Data(repeating: 0x5A, count: 100))
        case .pagesOverwritten:
            // Every page after the first: the schema survives, the b-trees do not.
            for page in stride(from: 4096, to: bytes.count, by: 4096) {
                bytes.replaceSubrange(page..<(page + 64), with: Data(repeating: 0xA5, count: 64))
            }
        case .truncated:
            bytes = bytes.prefix(bytes.count / 3)
        }
        try bytes.write(to: file)

        let reopened = try storage.open()
        let recovery = try #require(reopened.recovery)
        #expect(FileManager.default.fileExists(atPath: recovery.damagedFileMovedTo.path))
        #expect(try Data(contentsOf: recovery.damagedFileMovedTo) == bytes)
        #expect(recovery.userMessage.contains(recovery.damagedFileMovedTo.path))
        #expect(try settingsStore(reopened).current() == Settings.defaults)
        #expect(try DetectionHistory(database: reopened).count() == 0)
        try settingsStore(reopened).set("speech.pitch", text: "60")
        try reopened.close()

        let again = try storage.open()
        #expect(again.recovery == nil)
        #expect(try settingsStore(again).current().speech.pitch == 60)
    }

    @Test("two connections writing at once lose nothing")
    func concurrentConnections() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let databases = [try storage.open(), try storage.open(), try storage.open()]
        let perWriter = 150
        let failures = FailureLog()
        // Real threads, not tasks: the test must not depend on how many cooperative threads
        // the test runner happens to have free.
        DispatchQueue.concurrentPerform(iterations: databases.count) { index in
            let history = DetectionHistory(database: databases[index])
            let store = settingsStore(databases[index])
            do {
                for row in 0..<perWriter {
                    try history.record(detection("writer\(index)", at: Date()))
                    if row % 15 == 0 {
                        try store.set(["speech.pitch", "speech.rateWordsPerMinute", "detection.maximumObjects"][index], text: "\([10, 100, 1][index] + row / 15)")
                    }
                }
            } catch {
                failures.append("writer \(index): \(error)")
            }
        }
        #expect(failures.entries.isEmpty, "\(failures.entries)")
        let history = DetectionHistory(database: databases[0])
        #expect(try history.count() == databases.count * perWriter)
        for index in databases.indices {
            #expect(try history.list(HistoryQuery(label: "writer\(index)")).count == perWriter)
        }
        let settings = try settingsStore(databases[1]).current()
        #expect(settings.speech.pitch == 19 && settings.speech.rateWordsPerMinute == 109 && settings.detection.maximumObjects == 10)
    }

    @Test("another process writing at the same time loses nothing, and neither does this one")
    func concurrentProcess() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        // Lock waits as long as a descheduled writer may take on a loaded machine: what is checked
        // is that nothing is lost, not how quickly a lock is given up (10 s, the default, is a
        // user's wait, and a busy test machine can hold a transaction's process off that long).
        let database = try storage.open(UserDatabase.Options(busyTimeoutSeconds: 3600))
        let rows = 150
        // A real second process: Python's sqlite3 inserting usage sessions, one transaction each,
        // from before this process starts recording detections until after it has finished, so
        // the two write to the WAL file together. It says "started" once its first row is
        // committed, and stops when its standard input closes (this test closes it when done, and
        // the system closes it if the test dies), then prints how many rows it wrote. Events,
        // not deadlines: however long either process is descheduled, the test waits for the other.
        // Between its transactions it looks at its input for up to 5 ms: a writer that takes the
        // lock again the moment it let go starved this process's waits for it (SQLite's busy
        // handler retries after sleeps of up to 100 ms), and under two CPU hogs the 150 rows here
        // took over 6 minutes. Any real writer (a session records a few rows a second) leaves gaps.
        let script = """
            import select, sqlite3, sys
            db = sqlite3.connect(sys.argv[1], timeout=3600, isolation_level=None)
            i = 0
            while i == 0 or not select.select([sys.stdin], [], [], 0.005)[0]:
                db.execute("BEGIN IMMEDIATE")
                db.execute("INSERT INTO usageSession (mode, startedAt, lastActiveAt, frames) VALUES ('python', ?, ?, ?)", (i, i, i))
                db.execute("COMMIT")
                i += 1
                if i == 1:
                    print("started", flush=True)
            print(i, flush=True)
            """
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        writer.arguments = ["python3", "-c", script, storage.location.databaseFile.path]
        let control = Pipe(), output = Pipe()
        writer.standardInput = control
        writer.standardOutput = output
        try writer.run()
        let said = PrintedLines(output.fileHandleForReading)
        try #require(said.wait(for: "started"), "the other process should have written its first row: \(said.text)")
        let statistics = UsageStatistics(database: database)
        // The other process's row i starts at second i; on a loaded machine it can write more
        // than a million rows before this one is done, so the range is far wider than that.
        let everything = (from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 1e12))
        // Counted by SQLite, not by decoding every row: the other process adds about a thousand a second.
        func otherRows() throws -> Int { try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM usageSession") ?? 0 } }
        let history = DetectionHistory(database: database)
        let otherRowsBefore = try otherRows()
        // At least `rows`, and on until the other process has written meanwhile (on a loaded
        // machine it can be descheduled for the whole of 150 quick inserts), or has ended.
        var recorded = 0
        var otherRowsAfter = otherRowsBefore
        while recorded < rows || (otherRowsAfter == otherRowsBefore && writer.isRunning) {
            try history.record(detection("bench", at: Date()))
            recorded += 1
            otherRowsAfter = try otherRows()
        }
        try control.fileHandleForWriting.close()
        let written = said.waitForEnd().last.flatMap { Int($0) }
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        #expect(otherRowsBefore > 0 && otherRowsAfter > otherRowsBefore,
                "the other process should write while this one does: \(otherRowsBefore) rows before, \(otherRowsAfter) after")
        #expect(try history.count() == recorded)
        let sessions = try statistics.sessions(from: everything.from, to: everything.to)
        let expected = Array(0..<(try #require(written)))
        #expect(sessions.map(\.frames) == expected,
                "\(sessions.count) of the other process's \(expected.count) rows read back; first difference at \(Array(zip(sessions.map(\.frames), expected)).firstIndex { $0.0 != $0.1 } ?? min(sessions.count, expected.count))")
    }

    @Test("a full disk during a write gives a clear error and leaves earlier data intact")
    func diskFull() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        // 200 KiB cap: SQLite reports SQLITE_FULL past it exactly as when the disk is full.
        let database = try storage.open(UserDatabase.Options(maximumSizeBytes: 200 * 1024))
        let store = settingsStore(database)
        try store.set("detection.confidenceThreshold", text: "0.7")
        let history = DetectionHistory(database: database)
        try history.record((0..<20).map { detection("chair", at: Date().addingTimeInterval(Double($0))) })
        let before = try history.list()

        // Dated in the past: an entry dated in the future is refused before the disk is touched.
        let big = (0..<5000).map { detection("sofa", direction: String(repeating: "far to the left ", count: 4), at: Date().addingTimeInterval(-Double($0))) }
        guard case .diskFull(let path)? = storageError({ try history.record(big) }) else {
            Issue.record("expected diskFull")
            return
        }
        #expect(path == storage.location.databaseFile.path)
        #expect(StorageError.diskFull(path: path).userMessage.contains("nothing was changed"))
        #expect(try history.list() == before)
        #expect(try store.current().detection.confidenceThreshold == 0.7)
        // The database is still usable for writes that fit.
        try store.set("speech.pitch", text: "40")
        try database.close()
        #expect(try settingsStore(try storage.open()).current().speech.pitch == 40)
    }

    @Test("when the disk refuses SQLite's companion files, the saved settings are still read, and nothing is saved, in words")
    func readingNeedsNoWriting() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let database = try storage.open()
        try settingsStore(database).set("speech.volumePercent", text: "40")
        try DetectionHistory(database: database).record([detection("chair", at: Date())])
        try database.close()
        // A full disk, as SQLite meets it on opening: the shared-memory file cannot be made
        // (here a folder stands where it goes, which refuses the write for any user, root too).
        let sharedMemory = URL(fileURLWithPath: storage.location.databaseFile.path + "-shm")
        try? FileManager.default.removeItem(at: sharedMemory)
        try FileManager.default.createDirectory(at: sharedMemory, withIntermediateDirectories: false)

        let readOnly = try storage.open()
        let opening = try #require(readOnly.readOnly, "opened for reading only")
        #expect(opening.userMessage.contains("nothing is saved"))
        #expect(opening.userMessage.contains(storage.location.databaseFile.path))
        let store = settingsStore(readOnly)
        #expect(try store.current().speech.volumePercent == 40, "the saved value, not the default")
        #expect(try DetectionHistory(database: readOnly).list().map(\.label) == ["chair"])
        // A change is refused in one sentence, and what was saved stays.
        guard case .databaseUnavailable(_, let reason)? = storageError({ try store.set("speech.volumePercent", text: "90") }) else {
            Issue.record("expected the change to be refused")
            return
        }
        #expect(reason.contains("refused a write"))
        #expect(try store.current().speech.volumePercent == 40)
        try readOnly.close()

        // Once the disk takes writes again, the file opens as before, with everything in it.
        try FileManager.default.removeItem(at: sharedMemory)
        let writable = try storage.open()
        #expect(writable.readOnly == nil)
        #expect(try settingsStore(writable).current().speech.volumePercent == 40)
    }

    @Test("the database, its WAL and the key are readable by the user alone, and the key lives outside the data folder")
    func permissions() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let database = try storage.open()
        try DetectionHistory(database: database).record(detection("car", at: Date()))
        func mode(_ url: URL) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        let files = storage.databaseFiles
        #expect(files.count == 3)
        for file in files + [storage.location.keyFile] { #expect(try mode(file) == 0o600, "\(file.lastPathComponent)") }
        #expect(try mode(storage.location.databaseFile.deletingLastPathComponent()) == 0o700)
        #expect(try mode(storage.location.keyFile.deletingLastPathComponent()) == 0o700)
        #expect(storage.location.keyFile.path.hasPrefix(storage.root.appendingPathComponent("config").path))
        #expect(!storage.location.keyFile.path.hasPrefix(storage.location.databaseFile.deletingLastPathComponent().path))
        #expect(try Data(contentsOf: storage.location.keyFile).count == 32)
    }

    @Test("two processes creating the key at once end up with the same key")
    func keyCreatedOnce() async throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let keyFile = storage.location.keyFile
        let keys = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let cipher = try ColumnCipher.loadOrCreate(keyFile: keyFile)
                    return try cipher.seal(Data("probe".utf8), context: Data())
                }
            }
            return try await group.reduce(into: [Data]()) { $0.append($1) }
        }
        let cipher = try ColumnCipher.loadOrCreate(keyFile: keyFile)
        for sealed in keys { #expect(try cipher.open(sealed, context: Data()) == Data("probe".utf8)) }
    }
}
