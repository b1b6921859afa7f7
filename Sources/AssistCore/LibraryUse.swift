import Foundation
import Synchronization

/// A C++ inference library's use by this process (OpenVINO, ONNX Runtime), open until the process
/// exits.
///
/// `exit()` runs the C++ runtime's static destructors on the exiting thread while the process's
/// other threads go on. A call still going on in another thread then meets those statics
/// destroyed, and fails or crashes the process: ONNX Runtime's "GetElementType is not
/// implemented" when the voice listener was transcribing (issue 35), and SIGSEGV at the end of
/// `assist see` in 6 of 16 `bench/spoken_contract.py exit` runs while the command understanding's
/// sentence model was still being compiled on its own thread (issue 36). So each wrapper counts
/// every call into its library here, and a handler that `exit()` runs before those destructors
/// (`closeAtExit()`) turns every later call away and waits for the calls in flight.
///
/// It waits `exitWaitSeconds` at most (a quarter of a second): "exit" must end the program within
/// a second, and a model being compiled or an inference abandoned by a watchdog can take seconds
/// more. A call still going on then is not waited for: the process ends at once, with the status
/// it was ending with and its output flushed, without the destructors that would have crashed it
/// (what they free goes with the process).
public final class LibraryUse: Sendable {
    private struct State {
        var callsInFlight = 0
        var closed = false
    }
    private let state = Mutex(State())
    /// Signalled when the last call in flight returns, for `close` to wait on.
    private let idle = DispatchSemaphore(value: 0)
    public let exitWaitSeconds: Double

    public init(exitWaitSeconds: Double = 0.25) {
        self.exitWaitSeconds = exitWaitSeconds
    }

    /// Runs `body`, a call into the library, unless the process is exiting: then throws `ending`.
    public func call<T, E: Error>(ifEnding ending: @autoclosure () -> E, _ body: () throws(E) -> T) throws(E) -> T {
        let open = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.callsInFlight += 1
            return true
        }
        guard open else { throw ending() }
        defer { leave() }
        return try body()
    }

    /// Runs `release` (freeing something the library made) unless the process is exiting: the
    /// memory then goes with the process.
    public func release(_ release: () -> Void) {
        let open = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.callsInFlight += 1
            return true
        }
        guard open else { return }
        defer { leave() }
        release()
    }

    private func leave() {
        let wakeCloser = state.withLock { state -> Bool in
            state.callsInFlight -= 1
            return state.closed && state.callsInFlight == 0
        }
        if wakeCloser { idle.signal() }
    }

    /// Turns every later call away, then waits up to `seconds` for the calls in flight to return;
    /// false when one was still going on.
    @discardableResult
    public func close(waitingAtMostSeconds seconds: Double) -> Bool {
        let waitsFor = state.withLock { state -> Bool in
            let wasOpen = !state.closed
            state.closed = true
            return wasOpen && state.callsInFlight > 0
        }
        guard waitsFor else { return state.withLock { $0.callsInFlight == 0 } }
        return idle.wait(timeout: .now() + seconds) == .success
    }

    /// Makes `exit()` close this before it destroys what the library has made so far. `exit()`
    /// runs its handlers in the reverse order of registration, and a C++ static's destructor is
    /// registered when the static is first made: so the wrapper registers this again after every
    /// step that makes new ones (loading the library, each model compiled or loaded, first runs).
    /// Closing twice is harmless. This object must live as long as the process (a `static let`).
    public func closeAtExit() {
        on_exit({ status, use in
            guard let use else { return }
            let library = Unmanaged<LibraryUse>.fromOpaque(use).takeUnretainedValue()
            if !library.close(waitingAtMostSeconds: library.exitWaitSeconds) {
                fflush(nil)
                _exit(status)
            }
        }, Unmanaged.passUnretained(self).toOpaque())
    }
}
