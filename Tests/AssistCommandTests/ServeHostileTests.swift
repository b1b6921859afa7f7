import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `assist serve` over real loopback connections, as an attacker's or a broken client's would
/// be: silent connections, uploads left half sent, SIGTERM while they are open. Every step waits
/// for what the server does (a connection closed, the process ended), never for a time; the only
/// clock is a hang guard of minutes, which turns a server that never acts into a failure.
@Suite("assist serve under hostile connections", .serialized)
struct ServeHostileTests {
    typealias Server = ServeHearLiveTests.Server

    /// One TCP connection to 127.0.0.1, read and written with plain system calls.
    final class Connection {
        let socketFD: Int32

        init(port: Int) throws {
            socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard socketFD >= 0, connected == 0 else { throw ToolFailure(message: "cannot connect to 127.0.0.1:\(port)") }
            // The hang guard: a read that waits 3 minutes returns, so a server that never closes fails the test.
            var guardTime = timeval(tv_sec: 180, tv_usec: 0)
            setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &guardTime, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(socketFD) }

        func send(_ text: String) { send(Data(text.utf8)) }

        func send(_ data: Data) {
            data.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let sent = Glibc.send(socketFD, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                    if sent <= 0 { return }
                    offset += sent
                }
            }
        }

        /// What arrives until the server closes the connection (nil when the hang guard ran out first).
        func readUntilClosed() -> String? {
            var received = Data()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(socketFD, &buffer, buffer.count, 0)
                if count == 0 { return String(decoding: received, as: UTF8.self) }
                if count < 0 { return errno == ECONNRESET ? String(decoding: received, as: UTF8.self) : nil }
                received.append(contentsOf: buffer[0..<count])
            }
        }

        /// What arrives until `marker` has (nil when the connection closed or the guard ran out first).
        func read(until marker: String) -> String? {
            var received = Data()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while !String(decoding: received, as: UTF8.self).contains(marker) {
                let count = recv(socketFD, &buffer, buffer.count, 0)
                if count <= 0 { return nil }
                received.append(contentsOf: buffer[0..<count])
            }
            return String(decoding: received, as: UTF8.self)
        }
    }

    static func port(of server: Server) -> Int { Int(server.address.split(separator: ":").last ?? "") ?? 0 }

    /// Waits for the server process to end; false when the hang guard ran out first.
    static func waitForExit(_ process: Process) -> Bool {
        let ended = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { process.waitUntilExit(); ended.signal() }
        return ended.wait(timeout: .now() + 180) == .success
    }

    @Test("a connection that sends nothing, or a request head a byte at a time that never ends, is closed after --idle-timeout")
    func idleConnectionsClosed() throws {
        let folders = AssistBinary.userFolders()
        defer { folders.remove() }
        let server = try Server(["--idle-timeout", "1"], environment: folders.environment)
        defer { server.stop() }
        let silent = try Connection(port: Self.port(of: server))
        let slow = try Connection(port: Self.port(of: server))
        slow.send("GET /settings HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        #expect(silent.readUntilClosed() == "", "the silent connection was not closed")
        #expect(slow.readUntilClosed() != nil, "the unfinished request was not closed")
        // The server goes on answering.
        #expect(try server.get("/settings").contains("<h1>Settings</h1>"))
    }

    @Test("an upload without the token is answered 401 at once, before the body it announced arrives")
    func unauthenticatedUploadRefusedOnHeaders() throws {
        let folders = AssistBinary.userFolders()
        defer { folders.remove() }
        let server = try Server([], environment: folders.environment)
        defer { server.stop() }
        let connection = try Connection(port: Self.port(of: server))
        // 100 MB announced, 10 bytes sent: the answer cannot wait for the rest.
        connection.send("POST /hearing/prescriptions/import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 104857600\r\n\r\n--b\r\nxxxx")
        let answer = try #require(connection.read(until: "assist serve printed"))
        #expect(answer.hasPrefix("HTTP/1.1 401"), "\(answer)")
        #expect(answer.lowercased().contains("content-security-policy:"))
    }

    @Test("Hummingbird's own 400, for a request head that cannot be parsed or is too large, carries the pages' security headers too")
    func badRequestHasSecurityHeaders() throws {
        let folders = AssistBinary.userFolders()
        defer { folders.remove() }
        let server = try Server([], environment: folders.environment)
        defer { server.stop() }
        let garbage = try Connection(port: Self.port(of: server))
        garbage.send("NOT HTTP AT ALL\r\n\r\n")
        let tooLarge = try Connection(port: Self.port(of: server))
        tooLarge.send("GET /help HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: \(String(repeating: "a", count: 40_000))\r\n\r\n")
        for (name, connection) in [("garbage", garbage), ("too large", tooLarge)] {
            let answer = try #require(connection.readUntilClosed(), "\(name): no answer")
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(name): \(answer)")
            let lowered = answer.lowercased()
            #expect(lowered.contains("content-security-policy: default-src 'self'"), "\(name): \(answer)")
            #expect(lowered.contains("x-content-type-options: nosniff"), "\(name): \(answer)")
            #expect(lowered.contains("referrer-policy: same-origin"), "\(name): \(answer)")
        }
        // The server goes on answering pages, with the headers once each.
        #expect(try server.get("/settings").contains("<h1>Settings</h1>"))
    }

    @Test("SIGTERM ends the server at once, even with an upload half sent that would otherwise hold it")
    func sigtermWithUploadInFlight() throws {
        let folders = AssistBinary.userFolders()
        defer { folders.remove() }
        let server = try Server([], environment: folders.environment)
        let connection = try Connection(port: Self.port(of: server))
        // A page request and, behind it on the same connection, an upload whose body stops
        // half-way: once the page's answer is read, the server holds the upload's head.
        let head = "Host: \(server.address.dropFirst("http://".count))\r\nCookie: assist_access=\(server.token)\r\nOrigin: \(server.address)\r\n"
        connection.send("GET /help HTTP/1.1\r\n\(head)\r\n"
                        + "POST /settings HTTP/1.1\r\n\(head)Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 50000\r\n\r\nkey=speech.pitch&value=")
        #expect(connection.read(until: "</html>") != nil)
        server.process.terminate()
        #expect(Self.waitForExit(server.process), "assist serve went on after SIGTERM")
        #expect(server.process.terminationReason == .exit)
    }
}
