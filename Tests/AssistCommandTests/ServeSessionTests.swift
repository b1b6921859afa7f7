import Foundation
import TestSupport
import Testing

/// `assist serve --input` runs the live session inside its own process (issue 36: it used to
/// start a child `assist see` and parse its printed lines back). Every wait is for what the
/// server sends, with only a hang guard of minutes.
@Suite("assist serve --input runs the session in its own process", .serialized)
struct ServeSessionTests {
    typealias Server = ServeHearLiveTests.Server
    typealias Connection = ServeHostileTests.Connection

    /// The processes `pid` started that are still running (Linux: /proc/PID/task/*/children).
    static func children(of pid: Int32) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").map(String.init)
        }
    }

    /// `assist serve --input` on a bus video of `seconds`, and the Live page's event stream once
    /// the session's first sentence has come on it.
    static func serving(videoSeconds: Int, in folder: URL, environment: [String: String]) throws -> (Server, Connection, String) {
        let video = try AssistBinary.busVideo(seconds: videoSeconds, in: folder)
        let server = try Server(["--input", video.path, "--watchdog", "600"], environment: environment)
        let events = try Connection(port: ServeHostileTests.port(of: server))
        events.send("GET /live/events HTTP/1.1\r\nHost: \(server.address.dropFirst("http://".count))\r\nCookie: assist_access=\(server.token)\r\n\r\n")
        guard let started = events.read(until: "Assistive Vision activated.") else {
            server.stop()
            throw ToolFailure(message: "the session's first sentence never came")
        }
        return (server, events, started)
    }

    @Test("what the session says reaches the Live page's event stream, from a session with no process of its own, and its end is said")
    func inProcess() throws {
        let folders = AssistBinary.userFolders()
        defer { folders.remove() }
        let folder = try TemporaryFolder.make("serve-session")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, events, started) = try Self.serving(videoSeconds: 3, in: folder, environment: folders.environment)
        defer { server.stop() }
        #expect(started.hasPrefix("HTTP/1.1 200"))
        #expect(Self.children(of: server.process.processIdentifier).isEmpty, "assist serve started a child process for the session")
        let ended = try #require(events.read(until: "The live session has ended."), "the session's end was never said")
        // The bus in the video is announced on the page on its way to the end.
        #expect(ended.contains("Bus") || started.contains("Bus"), "\(started)\(ended)")
        // The server goes on answering pages after the session ended, and Ctrl-C still stops it
        // (the session had taken SIGINT and left it ignored: assist serve never stopped).
        #expect(try server.get("/settings").contains("<h1>Settings</h1>"))
        server.process.interrupt()
        #expect(ServeHostileTests.waitForExit(server.process), "assist serve went on after Ctrl-C")
    }

    @Test("Ctrl-C while the session runs ends the session and the server")
    func interruptWhileRunning() throws {
        let folders = AssistBinary.userFolders()
        defer { folders.remove() }
        let folder = try TemporaryFolder.make("serve-session")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, _, _) = try Self.serving(videoSeconds: 60, in: folder, environment: folders.environment)
        defer { server.stop() }
        server.process.interrupt()
        #expect(ServeHostileTests.waitForExit(server.process), "assist serve went on after Ctrl-C")
        #expect(server.process.terminationStatus == 0)
    }
}
