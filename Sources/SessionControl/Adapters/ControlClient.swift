import Foundation

/// The client side of the control socket: sends one command line to the running session and
/// reads its one-line JSON reply (what `assist ctl` and the web app's Live page do).
public struct ControlClient: Sendable {
    public let socketPath: String
    public let timeoutSeconds: Double

    public init(socketPath: String = ControlSocketLocation.socket().path, timeoutSeconds: Double = 10) {
        self.socketPath = socketPath
        self.timeoutSeconds = timeoutSeconds
    }

    /// Sends `line`; throws `ControlSocketError.noSession` when no session listens, `.noReply`
    /// when it closed without answering or answered with something that is not a reply.
    public func send(_ line: String) throws -> ControlReply {
        let socket = try UnixSocket.connect(to: socketPath, timeoutSeconds: timeoutSeconds)
        defer { socket.close() }
        guard let replyLine = try socket.ask(line) else { throw ControlSocketError.noReply }
        guard let reply = try? JSONDecoder().decode(ControlReply.self, from: Data(replyLine.utf8)) else {
            throw ControlSocketError.noReply
        }
        return reply
    }

    /// `send` on a thread of its own, so an async caller (the web app) never blocks a thread of
    /// the shared pool while the session takes its time to answer.
    public func sendAway(_ line: String) async throws -> ControlReply {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try send(line) }) }.start()
        }
    }
}
