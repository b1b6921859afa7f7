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
    }

    public let limitSeconds: Double

    public init(limitSeconds: Double) {
        self.limitSeconds = limitSeconds
    }

    /// Runs `work` on a new thread; returns its result, or `.timedOut` when it took longer than
    /// the limit. `work` must not touch anything the caller uses meanwhile.
    public func run<Value>(_ work: @escaping () throws -> Value) async -> Outcome<Value> {
        let job = UncheckedBox(work)
        let box: UncheckedBox<Outcome<Value>> = await withCheckedContinuation { continuation in
            let once = ResumeOnce(continuation)
            let thread = Thread {
                let result = Result { try job.value() }
                once.resume(UncheckedBox(.finished(result)))
            }
            thread.name = "scene analysis"
            thread.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + max(limitSeconds, 0)) {
                once.resume(UncheckedBox(.timedOut))
            }
        }
        return box.value
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
