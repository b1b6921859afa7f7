import AssistCore
import Foundation
import Testing
@testable import Storage
#if canImport(Glibc)
import Glibc
#endif

/// What stands where a data file belongs is looked at before it is opened: a FIFO would block
/// every command, and a folder is no full disk.
@Suite("Data files that are not files")
struct DataFileKindTests {
    /// Opens the database on another thread: a FIFO blocks its opener, so the test waits for the
    /// answer with a hang guard of minutes and fails instead of hanging when it never comes.
    static func openAnswer(_ storage: TemporaryStorage) -> StorageError? {
        let answer = Answer()
        let done = DispatchSemaphore(value: 0)
        Thread {
            do { _ = try storage.open(); answer.set(nil) } catch let error as StorageError { answer.set(error) } catch {
                answer.set(.databaseUnavailable(path: "", reason: "\(error)"))
            }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + 180) == .success else {
            Issue.record("opening the database blocked")
            return nil
        }
        return answer.value
    }

    final class Answer: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: StorageError?
        func set(_ value: StorageError?) { lock.withLock { stored = value } }
        var value: StorageError? { lock.withLock { stored } }
    }

    @Test("a named pipe at the database's path or the key's is refused in one sentence instead of blocking")
    func fifo() throws {
        for which in ["database", "key", "-wal", "-shm"] {
            let storage = try TemporaryStorage()
            defer { storage.remove() }
            let database = storage.location.databaseFile
            let path = switch which {
            case "database": database
            case "key": storage.location.keyFile
            default: URL(fileURLWithPath: database.path + which)
            }
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            #expect(mkfifo(path.path, 0o600) == 0)
            let answer = Self.openAnswer(storage)
            #expect(answer == .notARegularFile(path: path.path, kind: .namedPipe), "\(which)")
            #expect(answer?.userMessage == "The AssistiveKit data file \(path.path) is a named pipe (FIFO), not a regular file, so it was not opened; move it away and try again.")
        }
    }

    @Test("a folder at the database's path is called a folder, not a full disk")
    func folder() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        try FileManager.default.createDirectory(at: storage.location.databaseFile, withIntermediateDirectories: true)
        let answer = Self.openAnswer(storage)
        #expect(answer == .notARegularFile(path: storage.location.databaseFile.path, kind: .folder))
        #expect(answer?.userMessage.contains("is a folder, not a regular file") == true)
        #expect(answer?.userMessage.contains("room") == false)
    }
}
