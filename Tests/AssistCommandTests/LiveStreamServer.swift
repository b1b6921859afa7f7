import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// An MJPEG stream over HTTP on 127.0.0.1, as phone camera apps serve one: an `ffmpeg` process
/// that sends the street picture at 10 frames a second in real time (`-re`) to one client.
/// `stop()` kills it mid-run, which is what a phone going to sleep or leaving the network looks
/// like from the receiving side.
final class LiveStreamServer: @unchecked Sendable {
    let url: String
    private let process = Process()
    private let stopping = NSLock()   // stop() may come from the output reader and a guard timer at once

    init() throws {
        let port = try Self.freePort()
        url = "http://127.0.0.1:\(port)/camera.mjpeg"
        process.executableURL = Program.named("ffmpeg")
        process.arguments = ["-hide_banner", "-loglevel", "quiet", "-nostdin", "-re", "-loop", "1", "-framerate", "10",
                             "-i", LiveFixtures.busPicture, "-vf", "crop=810:608:0:200,scale=640:480,format=yuvj420p",
                             "-c:v", "mjpeg", "-q:v", "6", "-f", "mpjpeg", "-listen", "1", url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try waitUntilListening(port: port)
    }

    /// Kills the server (SIGKILL: no goodbye to the client, as when the sender vanishes).
    func stop() {
        stopping.lock()
        defer { stopping.unlock() }
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }

    /// A port nothing listens on now: the kernel picks one for a socket bound to port 0.
    private static func freePort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw ServerError.noPort }
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socketFD, pointer, length) == 0 && getsockname(socketFD, pointer, &length) == 0
            }
        }
        guard bound else { throw ServerError.noPort }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// ffmpeg opens its listening socket only after reading the first picture; the client must not
    /// connect before. Polls /proc/net/tcp for a LISTEN entry (state 0A) on the port, up to 10 s.
    /// Probing with a connection instead would be taken as the one client ffmpeg serves.
    private func waitUntilListening(port: Int) throws {
        let portHex = String(format: ":%04X", port)
        for _ in 0..<200 {
            if let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8),
               table.split(separator: "\n").contains(where: { line in
                   let fields = line.split(separator: " ")
                   return fields.count > 3 && fields[1].hasSuffix(portHex) && fields[3] == "0A"
               }) {
                return
            }
            guard process.isRunning else { throw ServerError.exited }
            usleep(50_000)
        }
        throw ServerError.notListening
    }

    enum ServerError: Error { case noPort, exited, notListening }
}
