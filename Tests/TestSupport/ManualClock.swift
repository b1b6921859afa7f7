import Foundation

/// A wall-clock date the test moves by hand, for code that takes `() -> Date` (prescription
/// expiry, trial periods, store time stamps): time passes only when the test says so.
public final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date) { current = start }

    public var now: Date { lock.withLock { current } }

    public func advance(seconds: TimeInterval) { lock.withLock { current = current.addingTimeInterval(seconds) } }

    /// The clock as the function the code under test calls.
    public var function: @Sendable () -> Date { { [self] in self.now } }
}
