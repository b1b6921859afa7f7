import Foundation
import TestSupport
import Testing

/// A data folder whose disk refuses writes (full, or read-only) and data files that are not
/// files: every command says one sentence for it, never two that disagree.
@Suite("assist on a data folder that refuses writes or holds no files", .serialized)
struct ReadOnlyDataTests {
    /// User folders with a database holding a changed setting, whose disk then refuses SQLite's
    /// companion file (a folder where `-shm` goes refuses the write for any user, root too).
    static func refusingFolders() throws -> (environment: [String: String], database: String, remove: () -> Void) {
        let folders = AssistBinary.userFolders()
        let set = try AssistBinary.run(["settings", "set", "speech.pitch", "40"], environment: folders.environment)
        try #require(set.status == 0, "\(set.standardError)")
        let database = folders.environment["XDG_DATA_HOME"]! + "/assistivekit/assistivekit.sqlite"
        try? FileManager.default.removeItem(atPath: database + "-shm")
        try FileManager.default.createDirectory(atPath: database + "-shm", withIntermediateDirectories: false)
        return (folders.environment, database, folders.remove)
    }

    static func lines(_ text: String) -> [Substring] { text.split(separator: "\n") }

    @Test("history list shows what is stored under the one read-only sentence; a change is refused in one sentence")
    func oneSentenceEach() throws {
        let user = try Self.refusingFolders()
        defer { user.remove() }
        let list = try AssistBinary.run(["history", "list"], environment: user.environment)
        #expect(list.status == 0, "\(list.standardError)")
        #expect(Self.lines(list.standardError).count == 1, "\(list.standardError)")
        #expect(list.standardError.contains("nothing is saved this time"))
        for change in [["settings", "set", "speech.pitch", "70"], ["history", "clear"], ["settings", "reset", "speech.pitch"]] {
            let refused = try AssistBinary.run(change, environment: user.environment)
            #expect(refused.status == 1, "\(change)")
            #expect(Self.lines(refused.standardError).count == 1, "\(change): \(refused.standardError)")
            #expect(refused.standardError.contains(user.database) && !refused.standardError.contains("saved settings are used"),
                    "\(change): \(refused.standardError)")
        }
        let show = try AssistBinary.run(["settings", "show", "speech.pitch"], environment: user.environment)
        #expect(show.standardOutput.contains("40"))
    }

    @Test("see on a picture says the read-only sentence once, not once per opening")
    func seeWarnsOnce() throws {
        let user = try Self.refusingFolders()
        defer { user.remove() }
        let see = try AssistBinary.run(["see", AssistBinary.image("bus.jpg"), "--quiet"], environment: user.environment)
        #expect(see.status == 0, "\(see.standardError)")
        #expect(see.standardError.components(separatedBy: "nothing is saved this time").count - 1 == 1, "\(see.standardError)")
    }

    @Test("a named pipe or a folder at the database's path gets one sentence that says what is there, and no command waits")
    func notAFile() throws {
        for kind in ["named pipe (FIFO)", "folder"] {
            let folders = AssistBinary.userFolders()
            defer { folders.remove() }
            let data = folders.environment["XDG_DATA_HOME"]! + "/assistivekit"
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            let database = data + "/assistivekit.sqlite"
            if kind == "folder" {
                try FileManager.default.createDirectory(atPath: database, withIntermediateDirectories: false)
            } else {
                #expect(mkfifo(database, 0o600) == 0)
            }
            let history = try AssistBinary.run(["history", "list"], environment: folders.environment, input: .nothing)
            #expect(history.status == 1)
            #expect(history.standardError == "The AssistiveKit data file \(database) is a \(kind), not a regular file, so it was not opened; move it away and try again.\n")
        }
    }
}
