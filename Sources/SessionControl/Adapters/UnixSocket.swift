import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A Unix-domain stream socket: the only place that touches socket file descriptors. Closed on
/// deinit; every failing call is thrown as `ControlSocketError.system` naming the call.
public final class UnixSocket: @unchecked Sendable {
    // @unchecked: the descriptor is only read after init, and closed once (in close or deinit).
    private(set) var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close() }

    public func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    /// Listens at `path` (a stale file left by a crashed session is replaced), owner-only.
    static func listen(at path: String) throws -> UnixSocket {
        let socket = try make()
        var address = try Self.address(path)
        unlink(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw ControlSocketError.system(call: "bind", code: errno) }
        // Owner-only: another user must not drive this user's assistant.
        guard chmod(path, 0o600) == 0 else { throw ControlSocketError.system(call: "chmod", code: errno) }
        guard Glibc.listen(socket.descriptor, 8) == 0 else { throw ControlSocketError.system(call: "listen", code: errno) }
        return socket
    }

    /// Connects to a listening socket; `ControlSocketError.noSession` when nothing listens there.
    public static func connect(to path: String, timeoutSeconds: Double) throws -> UnixSocket {
        let socket = try make()
        var address = try Self.address(path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            if code == ENOENT || code == ECONNREFUSED { throw ControlSocketError.noSession(path: path) }
            throw ControlSocketError.system(call: "connect", code: code)
        }
        socket.setTimeout(seconds: timeoutSeconds)
        return socket
    }

    /// Waits up to `timeoutMilliseconds` for a connection; nil when none came.
    func accept(timeoutMilliseconds: Int32) throws -> UnixSocket? {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&waiting, 1, timeoutMilliseconds)
        if ready < 0 {
            if errno == EINTR { return nil }
            throw ControlSocketError.system(call: "poll", code: errno)
        }
        guard ready > 0 else { return nil }
        let client = Glibc.accept(descriptor, nil, nil)
        guard client >= 0 else {
            if errno == EINTR || errno == EAGAIN || errno == ECONNABORTED { return nil }
            throw ControlSocketError.system(call: "accept", code: errno)
        }
        let connection = UnixSocket(descriptor: client)
        connection.setTimeout(seconds: 5)
        return connection
    }

    /// Reads up to the first newline (or the end), at most `limit` bytes; nil on timeout or error.
    public func readLine(limit: Int = 4096) -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while bytes.count < limit {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 { return nil }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[..<count])
            if bytes.contains(UInt8(ascii: "\n")) { break }
        }
        if bytes.isEmpty { return nil }
        let line = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        return String(decoding: line, as: UTF8.self)
    }

    public func write(_ text: String) throws {
        try write(bytes: Array(text.utf8))
    }

    /// Sends one line and reads the one-line answer; nil when none came. A server that answers at
    /// once and closes (the session busy with other clients) can close before the line is sent:
    /// the send then fails, but its answer is already here, so it is read rather than lost.
    public func ask(_ line: String) throws -> String? {
        do {
            try write(line + "\n")
        } catch ControlSocketError.system(let call, let code) where code == EPIPE || code == ECONNRESET {
            guard let answer = readLine() else { throw ControlSocketError.system(call: call, code: code) }
            return answer
        }
        return readLine()
    }

    public func write(bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw ControlSocketError.system(call: "send", code: errno) }
            offset += sent
        }
    }

    /// Reads until the other side closes, at most `limit` bytes; nil on timeout or error.
    public func readToEnd(limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count < limit {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 { return nil }
            if count == 0 { return bytes }
            bytes.append(contentsOf: buffer[..<count])
        }
        return nil
    }

    private static func make() throws -> UnixSocket {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ControlSocketError.system(call: "socket", code: errno) }
        return UnixSocket(descriptor: descriptor)
    }

    private static func address(_ path: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw ControlSocketError.pathTooLong(path: path) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    func setTimeout(seconds: Double) {
        var time = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }
}
