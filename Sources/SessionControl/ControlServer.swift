import Foundation
import Synchronization

/// The control socket of a running session: each connection sends one line (a command as it
/// would be typed) and gets one line back (a `ControlReply` as JSON), then is closed.
///
/// Serves on a thread of its own, waking every 50 ms to notice `stop()` (so the end of a session
/// is not held up by it): a blocked `accept`
/// is not reliably woken by closing its socket from another thread.
final class ControlServer: Sendable {
    let path: String
    private let socket: UnixSocket
    private let flags = Flags()

    /// Shared with the serving thread: whether to stop, and whether it has.
    private final class Flags: Sendable {
        let stopping = Mutex(false)
        let finished = Mutex(false)
    }

    /// Opens the socket; throws `alreadyInUse` when another session answers there.
    init(path: String, handle: @escaping @Sendable (String) -> ControlReply) throws {
        self.path = path
        try ControlSocketLocation.prepareFolder(URL(fileURLWithPath: path).deletingLastPathComponent())
        if (try? UnixSocket.connect(to: path, timeoutSeconds: 1)) != nil {
            throw ControlSocketError.alreadyInUse(path: path)
        }
        socket = try UnixSocket.listen(at: path)
        let thread = Thread { [socket, flags] in
            Self.serve(socket: socket, flags: flags, handle: handle)
            flags.finished.withLock { $0 = true }
        }
        thread.name = "assist control socket"
        thread.start()
    }

    /// Stops serving, and removes the socket file so `assist ctl` says no session is running.
    func stop() {
        let wasStopping = flags.stopping.withLock { stopping in
            defer { stopping = true }
            return stopping
        }
        guard !wasStopping else { return }
        // Wait (briefly) for the thread to leave poll before the descriptor is closed under it.
        for _ in 0..<50 where !flags.finished.withLock({ $0 }) { usleep(10_000) }
        unlink(path)
        socket.close()
    }

    private static func serve(socket: UnixSocket, flags: Flags, handle: (String) -> ControlReply) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        while !flags.stopping.withLock({ $0 }) {
            let waiting: UnixSocket?
            do { waiting = try socket.accept(timeoutMilliseconds: 50) } catch {
                usleep(200_000)  // a failing socket must not spin the thread
                continue
            }
            guard let connection = waiting else { continue }
            let line = connection.readLine()?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            // Nothing sent: another session checking whether this one is alive (or a client that
            // gave up). Not a command the user gave, so nothing is said.
            guard !line.isEmpty else {
                connection.close()
                continue
            }
            let reply = handle(line)
            let json = (try? encoder.encode(reply)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            try? connection.write(json + "\n")
            connection.close()
        }
    }
}
