import Foundation

/// Seconds since a start on a clock handed in from outside, and waits on that clock: what a live
/// loop reads and waits on instead of the system's time. Production passes `ContinuousClock()`;
/// tests pass TestSupport's `ManualClock`, so time passes only when the test moves it and no
/// test of a live loop sleeps or depends on how busy the machine is.
///
/// Any standard-library `Clock` counting in `Duration` will do: the clock is the one
/// abstraction, this is only its reading as seconds from a start (the session's clock, a frame
/// reader's) and the blocking wait that a reading thread needs.
public struct ElapsedClock: Sendable {
    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void
    /// Where a wait that needs a task of its own runs (a watchdog's timer, a reading thread's
    /// wait): nil for Swift's global pool. A task started with `Task {}` runs there whatever
    /// executor its starter preferred, and a host whose own code holds that pool's few threads
    /// (a test process, whose synchronous tests wait for child processes for minutes) would leave
    /// such a timer unrun: it hands in threads of its own here.
    public let executor: (any TaskExecutor)?

    /// Starts counting now, on `clock`; the tasks its waits need run on `executor` (nil: the
    /// global pool).
    public init<C: Clock>(_ clock: C, executor: (any TaskExecutor)? = nil) where C.Duration == Duration {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        sleeper = { try await clock.sleep(until: start.advanced(by: $0), tolerance: nil) }
        self.executor = executor
    }

    /// The system's clock, from now.
    public static func system() -> ElapsedClock { ElapsedClock(ContinuousClock()) }

    /// Seconds since the start.
    public var seconds: Double { elapsed().seconds }

    /// Suspends until `seconds` since the start (at once when that has passed); throws
    /// `CancellationError` when the task is cancelled meanwhile.
    public func sleep(untilSeconds seconds: Double) async throws {
        try await sleeper(.seconds(max(0, seconds)))
    }

    /// Suspends for `seconds` from now; a cancelled wait ends early without an error (the caller
    /// looks at what changed either way).
    public func rest(seconds: Double) async {
        try? await sleep(untilSeconds: self.seconds + seconds)
    }

    /// Blocks the calling thread (never a task of the cooperative pool) until `seconds` since the
    /// start, or until `wait.cancel()`: a reading thread's wait, which a consumer can end at once.
    public func block(untilSeconds seconds: Double, _ wait: BlockingWait) {
        let woken = DispatchSemaphore(value: 0)
        let sleeping = Task(executorPreference: executor) { [self] in
            try? await sleep(untilSeconds: seconds)
            woken.signal()
        }
        guard wait.hold(sleeping) else {
            sleeping.cancel()
            return
        }
        woken.wait()
        wait.release()
    }
}

/// A thread's wait on an `ElapsedClock` that another thread can end at once (`cancel`), and that
/// stays ended: a reader told to stop does not start waiting again.
public final class BlockingWait: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<Void, Never>?
    private var cancelled = false

    public init() {}

    public func cancel() {
        let waiting = lock.withLock { () -> Task<Void, Never>? in
            cancelled = true
            defer { task = nil }
            return task
        }
        waiting?.cancel()
    }

    /// False when cancelled already: then nothing is waited for.
    fileprivate func hold(_ waiting: Task<Void, Never>) -> Bool {
        lock.withLock {
            guard !cancelled else { return false }
            task = waiting
            return true
        }
    }

    fileprivate func release() { lock.withLock { task = nil } }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
