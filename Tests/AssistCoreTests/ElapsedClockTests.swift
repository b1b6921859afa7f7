import AssistCore
import Foundation
import TestSupport
import Testing

/// AssistCore's reading of an injected clock, on the test clock: time and waits follow the clock
/// the code is given, never the system's.
@Suite("Elapsed time on an injected clock")
struct ElapsedClockTests {
    @Test("seconds count from when it was made, as the clock moves and only then")
    func counts() {
        let clock = ManualClock()
        clock.advance(seconds: 7)
        let elapsed = ElapsedClock(clock)
        #expect(elapsed.seconds == 0)
        clock.advance(seconds: 1.5)
        #expect(elapsed.seconds == 1.5)
    }

    @Test("a task waiting for a moment wakes when the clock reaches it, not before")
    func sleepsUntilTheMoment() async throws {
        let clock = ManualClock()
        let elapsed = ElapsedClock(clock)
        let woke = Task { () -> Double in
            try await elapsed.sleep(untilSeconds: 2)
            return elapsed.seconds
        }
        try await clock.sleeper(dueWithin: .seconds(2))
        clock.advance(by: .milliseconds(1900))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(100))
        #expect(try await woke.value == 2)
    }

    @Test("a thread's wait ends when the clock reaches the moment, or at once when it is cancelled, and stays cancelled")
    func blockingWait() async throws {
        let clock = ManualClock()
        let elapsed = ElapsedClock(clock)
        let wait = BlockingWait()
        let (ended, ending) = AsyncStream<Double>.makeStream()
        let thread = Thread {
            elapsed.block(untilSeconds: 1, wait)
            ending.yield(elapsed.seconds)
            elapsed.block(untilSeconds: 60, wait)
            ending.yield(elapsed.seconds)
            ending.finish()
        }
        thread.start()
        try await clock.sleeper(dueWithin: .seconds(1))
        clock.advance(seconds: 1)
        var moments = ended.makeAsyncIterator()
        #expect(await moments.next() == 1)
        try await clock.sleeper(dueWithin: .seconds(60))
        wait.cancel()
        #expect(await moments.next() == 1, "the second wait ended by cancelling, the clock still at 1 s")
        #expect(await moments.next() == nil)
        elapsed.block(untilSeconds: 60, wait)   // cancelled: returns at once
        #expect(clock.sleeperCount == 0)
    }
}
