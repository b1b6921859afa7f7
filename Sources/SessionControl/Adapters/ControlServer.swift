import Foundation
import Synchronization

/// The control socket of a running session: each connection sends one line (a command as it
/// would be typed) and gets one line back (a `ControlReply` as JSON), then is closed.
///
/// Connections are served at once, each on a thread of its own with a short deadline for its
/// line and its reply, at most `maximumConnections` at a time (one more is told the session is
/// busy): a client that connects and says nothing never holds up the others, and guidance never
/// waits on any of them.
///
/// Serves on a thread of its own, waking every 50 ms to notice `stop()` (so the end of a session
/// is not held up by it): a blocked `accept`
/// is not reliably woken by closing its socket from another thread.
public final class ControlServer: Sendable {
    public let path: String
    private let socket: UnixSocket
    private let flags = Flags()

    /// Shared with the serving thread: whether to stop, and whether it has.
    private final class Flags: Sendable {
        let stopping = Mutex(false)
        let finished = Mutex(false)
        let connections = Mutex(0)
    }

    /// Connections served at the same time; beyond it a client is told the session is busy.
    public let maximumConnections: Int
    /// How long a connection may take to send its line and read its reply.
    public let connectionDeadlineSeconds: Double

    /// Opens the socket; throws `alreadyInUse` when another session answers there.
    public convenience init(path: String, maximumConnections: Int = 8, connectionDeadlineSeconds: Double = 2,
                            handle: @escaping @Sendable (String) -> ControlReply) throws {
        try self.init(path: path, maximumConnections: maximumConnections, connectionDeadlineSeconds: connectionDeadlineSeconds,
                      respond: { line in Array((Self.encoded(handle(line)) + "\n").utf8) })
    }

    /// The same serving with another answer: `respond` turns the line received into the bytes
    /// sent back (the view socket answers with a picture).
    init(path: String, maximumConnections: Int = 8, connectionDeadlineSeconds: Double = 2,
         respond: @escaping @Sendable (String) -> [UInt8]) throws {
        self.path = path
        self.maximumConnections = maximumConnections
        self.connectionDeadlineSeconds = connectionDeadlineSeconds
        try ControlSocketLocation.prepareFolder(URL(fileURLWithPath: path).deletingLastPathComponent())
        if (try? UnixSocket.connect(to: path, timeoutSeconds: 1)) != nil {
            throw ControlSocketError.alreadyInUse(path: path)
        }
        socket = try UnixSocket.listen(at: path)
        let thread = Thread { [socket, flags] in
            Self.serve(socket: socket, flags: flags, maximumConnections: maximumConnections,
                       deadlineSeconds: connectionDeadlineSeconds, respond: respond)
            flags.finished.withLock { $0 = true }
        }
        thread.name = "assist control socket"
        thread.start()
    }

    /// Stops serving, and removes the socket file so `assist ctl` says no session is running.
    public func stop() {
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

    private static func serve(socket: UnixSocket, flags: Flags, maximumConnections: Int, deadlineSeconds: Double,
                              respond: @escaping @Sendable (String) -> [UInt8]) {
        while !flags.stopping.withLock({ $0 }) {
            let waiting: UnixSocket?
            do { waiting = try socket.accept(timeoutMilliseconds: 50) } catch {
                usleep(200_000)  // a failing socket must not spin the thread
                continue
            }
            guard let connection = waiting else { continue }
            connection.setTimeout(seconds: deadlineSeconds)
            let admitted = flags.connections.withLock { count -> Bool in
                guard count < maximumConnections else { return false }
                count += 1
                return true
            }
            guard admitted else {
                let busy = ControlReply(understood: false, intent: nil,
                                        reply: "The session is busy with other commands; try again in a moment.")
                try? connection.write(encoded(busy) + "\n")
                connection.close()
                continue
            }
            let thread = Thread {
                serveOne(connection, respond: respond)
                flags.connections.withLock { $0 -= 1 }
            }
            thread.name = "assist control connection"
            thread.start()
        }
    }

    private static func serveOne(_ connection: UnixSocket, respond: (String) -> [UInt8]) {
        defer { connection.close() }
        let line = connection.readLine()?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        // Nothing sent (in time): another session checking whether this one is alive, or a client
        // that gave up. Not a command the user gave, so nothing is said.
        guard !line.isEmpty else { return }
        try? connection.write(bytes: respond(line))
    }

    private static func encoded(_ reply: ControlReply) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(reply)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
