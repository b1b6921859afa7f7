import AssistCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One wake listener per user (`assist wake`): an exclusive lock on a file in the user's runtime
/// folder, held while listening and released by the system if the process dies.
public struct WakeListenerLock: Sendable {
    let descriptor: Int32

    /// Why the wake listener did not start: the lock was not taken, or the phrase spotter could not load.
    public enum Failure: UserFacingError, Equatable {
        case cannotCreate(path: String)
        /// Another listener holds it: a state of the system, not bad usage.
        case alreadyListening(owner: String)
        /// The speech models the phrase spotter needs could not be loaded (`reason`: their sentence).
        case cannotListen(reason: String)

        public var userMessage: String {
            switch self {
            case .cannotCreate(let path): return "The wake listener cannot create its lock file \(path)."
            case .alreadyListening(let owner):
                return "Assistive Vision is already listening for its wake phrase (process \(owner)); only one listener runs at a time."
            case .cannotListen(let reason): return "The wake listener cannot start: \(reason)"
            }
        }
    }

    /// `folder`: the user's runtime folder (the control socket's).
    public static func acquire(in folder: URL = ControlSocketLocation.folder()) throws(Failure) -> WakeListenerLock {
        try? ControlSocketLocation.prepareFolder(folder)
        let path = folder.appendingPathComponent("wake.lock").path
        let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
        guard descriptor >= 0 else { throw .cannotCreate(path: path) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let owner = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            close(descriptor)
            throw .alreadyListening(owner: owner)
        }
        ftruncate(descriptor, 0)
        let pid = "\(getpid())\n"
        _ = pid.withCString { write(descriptor, $0, strlen($0)) }
        return WakeListenerLock(descriptor: descriptor)
    }

    public func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
