import Foundation

/// The one fake clock of the tests: time passes only when the test says so.
///
/// Two faces of the same time: a wall-clock `date` for code that takes `() -> Date` (prescription
/// expiry, trial periods, store time stamps: `function`), and a standard-library `Clock` for code
/// that reads and waits on time (a live guidance session, its frame reader and watchdog, through
/// AssistCore's `ElapsedClock`). A task sleeping on it wakes when `advance` reaches its deadline,
/// never by itself; a test waits for something to sleep with `sleeper(dueWithin:)`, an event.
public final class ManualClock: Clock, @unchecked Sendable {
    public typealias Duration = Swift.Duration

    /// A moment on the clock: its offset from where the clock started.
    public struct Instant: InstantProtocol, Sendable {
        public var offset: Swift.Duration
        public func advanced(by duration: Swift.Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Swift.Duration { other.offset - offset }
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Watcher {
        let id: Int
        let within: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// A deadline this close past the time counts as reached: sums of decimal seconds are not
    /// exact in binary (0.1 s ten times is not quite 1 s), and a test that moves the clock to a
    /// limit means the limit.
    private static let reachedWithin = Duration.nanoseconds(1)

    private let lock = NSLock()
    private let startDate: Date
    private var elapsed = Duration.zero
    private var sleepers: [Sleeper] = []
    private var watchers: [Watcher] = []
    private var advanceObservers: [@Sendable (Duration) -> Void] = []
    private var nextID = 0

    /// `start`: the date the clock shows before it is moved.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) { startDate = start }

    // MARK: The wall-clock date

    public var date: Date { lock.withLock { startDate.addingTimeInterval(elapsed.seconds) } }

    /// The clock as the function the code under test calls for the date.
    public var function: @Sendable () -> Date { { [self] in self.date } }

    /// Moves time on (or back, for a test of a clock set back: no sleeper wakes then).
    public func advance(seconds: TimeInterval) { advance(by: .seconds(seconds)) }

    // MARK: The clock

    public var now: Instant { lock.withLock { Instant(offset: elapsed) } }
    public var minimumResolution: Duration { .zero }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = lock.withLock { () -> Int in
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, watching) = lock.withLock { () -> (Result<Void, any Error>?, [Watcher]) in
                    if Task.isCancelled { return (.failure(CancellationError()), []) }
                    if deadline.offset <= elapsed + Self.reachedWithin { return (.success(()), []) }
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    let woken = watchers.filter { deadline.offset <= elapsed + $0.within }
                    watchers.removeAll { deadline.offset <= elapsed + $0.within }
                    return (nil, woken)
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
                for watcher in watching { watcher.continuation.resume() }
            }
        } onCancel: {
            let cancelled = lock.withLock { () -> Sleeper? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time on by `duration`: the observers (`whenAdvanced`) first, then every sleeper whose
    /// deadline has come wakes, earliest first.
    public func advance(by duration: Duration) {
        let observers = lock.withLock { advanceObservers }
        for observer in observers { observer(duration) }
        let due = lock.withLock { () -> [Sleeper] in
            elapsed += duration
            let due = sleepers.filter { $0.deadline.offset <= elapsed + Self.reachedWithin }.sorted { $0.deadline < $1.deadline }
            sleepers.removeAll { $0.deadline.offset <= elapsed + Self.reachedWithin }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Called with each advance, before the sleepers wake (a fake sound card plays that long).
    public func whenAdvanced(_ action: @escaping @Sendable (Duration) -> Void) {
        lock.withLock { advanceObservers.append(action) }
    }

    /// How many sleep on the clock now.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    /// Returns once something sleeps on the clock until at most `within` from now (at once when
    /// something does already): the event a test waits for before it moves time. Throws
    /// `CancellationError` when the waiting task is cancelled.
    public func sleeper(dueWithin within: Duration) async throws {
        let id = lock.withLock { () -> Int in
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = lock.withLock { () -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if sleepers.contains(where: { $0.deadline.offset <= elapsed + within }) { return .success(()) }
                    watchers.append(Watcher(id: id, within: within, continuation: continuation))
                    return nil
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
            }
        } onCancel: {
            let cancelled = lock.withLock { () -> Watcher? in
                guard let index = watchers.firstIndex(where: { $0.id == id }) else { return nil }
                return watchers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Runs `work` while moving time on by `step` whenever something sleeps on the clock until at
    /// most `horizon` from now, and returns what `work` returns. A live loop's rests, its frame
    /// reader's waits and the played speech (`whenAdvanced`) then follow one another as they would
    /// in real time, however fast or slow the machine runs them. A wait beyond the horizon (a
    /// watchdog's limit) is never what moves time: it is reached only when nearer waits carry the
    /// clock there, so work still running on a busy machine is not taken for a hang.
    public func run<Value: Sendable>(steppingBy step: Duration, horizon: Duration = .seconds(1),
                                     _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        // On the test's own threads: a task started with `Task {}` would run on Swift's global
        // pool, which synchronous tests beside this one hold while they wait for child processes.
        let stepping = Task(executorPreference: OwnThreads.shared) { [self] in
            while !Task.isCancelled {
                do { try await sleeper(dueWithin: horizon) } catch { return }
                advance(by: step)
                await Task.yield()
            }
        }
        defer { stepping.cancel() }
        return try await work()
    }
}

extension Duration {
    fileprivate var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
