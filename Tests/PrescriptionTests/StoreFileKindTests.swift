import AssistCore
import Foundation
import TestSupport
import Testing
@testable import Prescription

/// Issue 39: the data folder's files are opened only when they are regular files. A named pipe
/// where one of the patient store's files belongs blocked every `rx` command for ever.
@Suite("The patient store's files are regular files or refused")
struct StoreFileKindTests {
    let folder: URL

    init() throws {
        folder = try TemporaryFolder.make("rx-kinds").appendingPathComponent("prescriptions")
    }

    func store() -> PatientStore {
        PatientStore(folder: folder, cost: cheapCost, policy: .standard, user: "margarethe", clock: clockAfterIssue().function)
    }

    /// What `body` threw, run on another thread: a FIFO blocks its reader, so the test waits with a
    /// hang guard of minutes and fails instead of hanging when no answer comes.
    static func answer(_ body: @escaping @Sendable () throws -> Void) -> PrescriptionError? {
        final class Box: @unchecked Sendable {
            let lock = NSLock()
            var error: PrescriptionError?
            var other: String?
        }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Thread {
            do { try body() } catch let error as PrescriptionError { box.lock.withLock { box.error = error } } catch {
                box.lock.withLock { box.other = "\(error)" }
            }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + 180) == .success else {
            Issue.record("the store blocked on a file that is not a regular file")
            return nil
        }
        if let other = box.lock.withLock({ box.other }) { Issue.record("not a prescription error: \(other)") }
        return box.lock.withLock { box.error }
    }

    @Test("a named pipe, or a folder, at any of the store's files is refused in one sentence before anything is opened",
          arguments: ["auth.json", "attempts", "state.sealed", ".lock", "profiles/left.rx"])
    func notRegular(name: String) throws {
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        _ = try store().create(passphrase: "correct horse")
        let path = folder.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: path)
        #expect(mkfifo(path.path, 0o600) == 0)
        let store = store()
        let expected = PrescriptionError.storeFileNotRegular(path: path.path, kind: .namedPipe)
        #expect(Self.answer { _ = try store.unlock(passphrase: "correct horse") } == expected)
        #expect(Self.answer { _ = try store.waitBeforeNextAttempt() } == expected)
        #expect(expected.userMessage == "The patient store file \(path.path) is a named pipe (FIFO), not a regular file, so it was not opened; move it away and try again.")
        // Moved away, the store opens again: nothing else was touched.
        try FileManager.default.removeItem(at: path)
        if name == "auth.json" || name == "state.sealed" { return }  // those are the store itself
        _ = try store.unlock(passphrase: "correct horse")
    }

    @Test("a named pipe at the audit log is never opened: the store opens, and the user is told the access was not recorded")
    func auditLogPipe() throws {
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        _ = try store().create(passphrase: "correct horse")
        let path = folder.appendingPathComponent("audit.log")
        try FileManager.default.removeItem(at: path)
        #expect(mkfifo(path.path, 0o600) == 0)
        let told = Told()
        let store = PatientStore(folder: folder, cost: cheapCost, policy: .standard, user: "margarethe", clock: clockAfterIssue().function,
                                 unrecordedAccess: { sentence in told.lock.withLock { told.sentences.append(sentence) } })
        #expect(Self.answer { _ = try store.unlock(passphrase: "correct horse") } == nil)
        #expect(told.lock.withLock { told.sentences.count } == 1)
        let unlocked = try store.unlock(passphrase: "correct horse")
        #expect(throws: PrescriptionError.storeFileNotRegular(path: path.path, kind: .namedPipe)) { try unlocked.auditEntries() }
    }

    final class Told: @unchecked Sendable {
        let lock = NSLock()
        var sentences: [String] = []
    }

    @Test("a folder where the store's key record belongs is called a folder")
    func folderAtFile() throws {
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        _ = try store().create(passphrase: "correct horse")
        let path = folder.appendingPathComponent("attempts")
        try FileManager.default.removeItem(at: path)
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: false)
        let store = store()
        #expect(Self.answer { _ = try store.unlock(passphrase: "correct horse") }
                == .storeFileNotRegular(path: path.path, kind: .folder))
    }
}
