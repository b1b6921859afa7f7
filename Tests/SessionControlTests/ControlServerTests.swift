import Foundation
@testable import SessionControl
import Synchronization
import Testing

/// The control socket serves clients at once: one that connects and says nothing holds up no one.
@Suite("The control socket")
struct ControlServerTests {
    /// Short: a Unix socket path must fit in 108 bytes.
    private static func socketPath() throws -> (path: String, folder: URL) {
        let folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("cs-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (folder.appendingPathComponent("control.sock").path, folder)
    }

    private static func ask(_ path: String, _ line: String) throws -> String? {
        // Generous: only a server that serves one client after another would come near it.
        let socket = try UnixSocket.connect(to: path, timeoutSeconds: 120)
        return try socket.ask(line)
    }

    @Test("a client that connects and sends nothing does not delay another client's command")
    func silentClientDoesNotBlock() throws {
        let (path, folder) = try Self.socketPath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let heard = Mutex<[String]>([])
        // A deadline far longer than the client's wait: served one after another, the second
        // client would time out behind the silent one.
        let server = try ControlServer(path: path, connectionDeadlineSeconds: 600) { line in
            heard.withLock { $0.append(line) }
            return ControlReply(understood: true, intent: "scanNow", reply: "Scanning.")
        }
        defer { server.stop() }
        let silent = try UnixSocket.connect(to: path, timeoutSeconds: 600)
        defer { silent.close() }
        let reply = try #require(try Self.ask(path, "scan now"))
        #expect(reply.contains("Scanning."))
        #expect(heard.withLock { $0 } == ["scan now"])
    }

    @Test("beyond the connection cap a client is told the session is busy, at once, and nothing is carried out")
    func cap() throws {
        let (path, folder) = try Self.socketPath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let heard = Mutex<[String]>([])
        let server = try ControlServer(path: path, maximumConnections: 2, connectionDeadlineSeconds: 600) { line in
            heard.withLock { $0.append(line) }
            return ControlReply(understood: true, intent: nil, reply: "Done.")
        }
        defer { server.stop() }
        let first = try UnixSocket.connect(to: path, timeoutSeconds: 600)
        let second = try UnixSocket.connect(to: path, timeoutSeconds: 600)
        defer { first.close(); second.close() }
        let reply = try #require(try Self.ask(path, "exit"))
        #expect(reply.contains("busy"))
        #expect(heard.withLock { $0 }.isEmpty)
    }

    @Test("an answer the server sent before closing is read, though the line could no longer be sent (the busy reply's race)")
    func answerBeforeClose() throws {
        let (path, folder) = try Self.socketPath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let listener = try UnixSocket.listen(at: path)
        defer { listener.close() }
        // Served in the order they connect; each connection answers at once and closes.
        func answeredAndClosed() throws -> UnixSocket {
            let client = try UnixSocket.connect(to: path, timeoutSeconds: 120)
            let connection = try #require(try listener.accept(timeoutMilliseconds: 120_000))
            try connection.write("{\"reply\":\"busy\"}\n")
            connection.close()
            return client
        }
        let plain = try answeredAndClosed()
        defer { plain.close() }
        #expect(throws: ControlSocketError.self) { try plain.write("exit\n") }

        let asking = try answeredAndClosed()
        defer { asking.close() }
        #expect(try asking.ask("exit") == "{\"reply\":\"busy\"}")
    }

    @Test("stopping the server removes the socket file")
    func stopRemovesSocket() throws {
        let (path, folder) = try Self.socketPath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ControlServer(path: path) { _ in ControlReply(understood: true, intent: nil, reply: "") }
        #expect(FileManager.default.fileExists(atPath: path))
        server.stop()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a control folder that is a symbolic link is refused in one sentence, and nothing is made through it")
    func symbolicLinkFolder() throws {
        let (_, base) = try Self.socketPath()
        defer { try? FileManager.default.removeItem(at: base) }
        let elsewhere = base.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let link = base.appendingPathComponent("assistivekit")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: elsewhere)
        let path = link.appendingPathComponent("control.sock").path
        #expect(throws: ControlSocketError.symbolicLink(path: link.path)) {
            try ControlServer(path: path) { _ in ControlReply(understood: true, intent: nil, reply: "") }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
        // A link to nowhere is refused the same way (Foundation would say "Code=516").
        let dangling = base.appendingPathComponent("dangling")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: base.appendingPathComponent("gone").path)
        #expect(throws: ControlSocketError.symbolicLink(path: dangling.path)) {
            try ControlSocketLocation.prepareFolder(dangling)
        }
        #expect(ControlSocketError.symbolicLink(path: link.path).userMessage.contains("symbolic link"))
    }

    @Test("a control folder that cannot be made is said in words, without Foundation's error domain or code")
    func folderNotMade() throws {
        let (_, base) = try Self.socketPath()
        defer { try? FileManager.default.removeItem(at: base) }
        // The runtime folder is a link to nowhere: the control folder inside it cannot be made.
        let runtime = base.appendingPathComponent("runtime")
        try FileManager.default.createSymbolicLink(atPath: runtime.path, withDestinationPath: base.appendingPathComponent("gone").path)
        let folder = runtime.appendingPathComponent("assistivekit")
        do {
            try ControlSocketLocation.prepareFolder(folder)
            Issue.record("a folder under a dangling link was made")
        } catch let error as ControlSocketError {
            guard case .folderNotCreated(let path, _) = error else { Issue.record("unexpected \(error)"); return }
            #expect(path == folder.path)
            #expect(!error.userMessage.contains("Code="))
            #expect(!error.userMessage.contains("Domain"))
            #expect(error.userMessage.hasSuffix("so no control socket was opened."))
        }
    }
}
