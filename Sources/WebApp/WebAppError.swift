import AssistCore
import Foundation
import NIOCore

/// What can stop `assist serve`, each told in one sentence.
public enum WebAppError: UserFacingError, Equatable {
    case portInUse(port: Int)
    case cannotListen(port: Int, reason: String)
    case invalidPort(Int)

    public var userMessage: String {
        switch self {
        case .portInUse(let port):
            return "Port \(port) on 127.0.0.1 is already in use; choose another port, or port 0 for a free one."
        case .cannotListen(let port, let reason):
            return "The web app cannot listen on 127.0.0.1 port \(port): \(reason)."
        case .invalidPort(let port):
            return "The port must be from 0 (a free port) to 65535, not \(port)."
        }
    }

    /// The typed error for what the server threw while binding.
    static func binding(_ error: any Error, port: Int) -> WebAppError {
        if let error = error as? IOError {
            if error.errnoCode == EADDRINUSE { return .portInUse(port: port) }
            return .cannotListen(port: port, reason: String(cString: strerror(error.errnoCode)))
        }
        return .cannotListen(port: port, reason: "\(error)")
    }
}
