import AssistCore
import Foundation
import Synchronization

/// Runs one analysis on a thread of its own and stops waiting for it after a limit, so a hung
/// inference can never leave the user walking with a silent assistant.
///
/// A thread per analysis, not a task: inference blocks for tens of milliseconds (or forever, when
/// it hangs), which must not hold one of the few threads of Swift's cooperative pool. Starting a
/// thread costs some tens of microseconds, nothing beside the inference.
public struct AnalysisWatchdog: Sendable {
    public enum Outcome<Value> {
        case finished(Result<Value, any Error>)
        /// The limit passed first; the work may still be running and its result is dropped.
        case timedOut
        /// The user quit: nobody waits for the work any more (exit ends within a second).
        case abandoned
    }

    public let limitSeconds: Double
    /// The clock the limit is counted on (the session's `wallClock`; a test's, which reaches the
    /// limit only when the test moves it there).
    public let clock: ElapsedClock

    public init(limitSeconds: Double, clock: ElapsedClock) {
        self.limitSeconds = limitSeconds
        self.clock = clock
    }

    /// Runs `work` on a new thread; returns its result, or `.timedOut` when it took longer than
    /// the limit. `work` must not touch anything the caller uses meanwhile.
    public func run<Value>(abandonedBy abandonment: AnalysisAbandonment? = nil,
                           _ work: @escaping () throws -> Value) async -> Outcome<Value> {
        let job = UncheckedBox(work)
        let clock = clock, deadline = clock.seconds + max(limitSeconds, 0)
        var timer: Task<Void, Never>?
        let box: UncheckedBox<Outcome<Value>> = await withCheckedContinuation { continuation in
            let once = ResumeOnce(continuation)
            let thread = Thread {
                let result = Result { try job.value() }
                once.resume(UncheckedBox(.finished(result)))
            }
            thread.name = "scene analysis"
            thread.start()
            timer = Task(executorPreference: clock.executor) {
                // Cancelled once the work is done: nothing waits on the clock for a finished analysis.
                guard (try? await clock.sleep(untilSeconds: deadline)) != nil else { return }
                once.resume(UncheckedBox(.timedOut))
            }
            abandonment?.onAbandon { once.resume(UncheckedBox(.abandoned)) }
        }
        timer?.cancel()
        return box.value
    }
}

/// Once abandoned (the user quit), every analysis waited for under it stops being waited for at
/// once, and so does every later one.
public final class AnalysisAbandonment: Sendable {
    private struct State {
        var abandoned = false
        var actions: [@Sendable () -> Void] = []
    }
    private let state = Mutex(State())

    public init() {}

    public var isAbandoned: Bool { state.withLock { $0.abandoned } }

    public func abandon() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            state.abandoned = true
            defer { state.actions = [] }
            return state.actions
        }
        actions.forEach { $0() }
    }

    func onAbandon(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.abandoned { return true }
            state.actions.append(action)
            return false
        }
        if now { action() }
    }
}

/// Moves a value that is not `Sendable` between the session and its analysis thread. Unchecked:
/// the session hands the analyzer to one thread at a time and waits for it (or abandons it).
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Resumes a continuation exactly once: the first of the analysis and the timer wins.
private final class ResumeOnce<Value>: Sendable {
    private let continuation: Mutex<CheckedContinuation<UncheckedBox<Value>, Never>?>
    init(_ continuation: CheckedContinuation<UncheckedBox<Value>, Never>) {
        self.continuation = Mutex(continuation)
    }
    func resume(_ value: UncheckedBox<Value>) {
        let waiting = continuation.withLock { stored in
            defer { stored = nil }
            return stored
        }
        waiting?.resume(returning: value)
    }
}
