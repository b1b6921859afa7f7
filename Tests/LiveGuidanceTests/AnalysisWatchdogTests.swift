import AssistCore
import Foundation
@testable import LiveGuidance
import TestSupport
import Testing

/// The watchdog on its own, on the test's clock: its limit is reached when the clock is moved
/// there, never because the machine is slow.
@Suite("Analysis watchdog")
struct AnalysisWatchdogTests {
    private struct Failure: Error {}

    /// How a run ended, in words (the outcome itself is not `Sendable`).
    private static func ending<Value>(_ outcome: AnalysisWatchdog.Outcome<Value>) -> String {
        switch outcome {
        case .finished: "finished"
        case .timedOut: "timed out"
        case .abandoned: "abandoned"
        }
    }

    @Test("work that finishes is its result, however long it took, while the clock stands still")
    func finishes() async throws {
        let clock = ManualClock()
        let watchdog = AnalysisWatchdog(limitSeconds: 0.001, clock: ElapsedClock(clock, executor: OwnThreads.shared))
        let outcome = await watchdog.run { 42 }
        guard case .finished(.success(42)) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        let failed = await watchdog.run { () throws -> Int in throw Failure() }
        guard case .finished(.failure(let error)) = failed, error is Failure else {
            Issue.record("\(failed)")
            return
        }
        #expect(clock.sleeperCount == 0, "a finished analysis leaves nothing waiting on the clock")
    }

    @Test("work still running when the clock reaches the limit is given up on, and not before")
    func timesOut() async throws {
        let clock = ManualClock()
        let watchdog = AnalysisWatchdog(limitSeconds: 4, clock: ElapsedClock(clock, executor: OwnThreads.shared))
        let release = DispatchSemaphore(value: 0)
        let (started, starting) = AsyncStream<Void>.makeStream()
        let waiting = Task {
            Self.ending(await watchdog.run { () -> Int in
                starting.yield()
                release.wait()
                return 1
            })
        }
        for await _ in started { break }
        try await clock.sleeper(dueWithin: .seconds(4))
        clock.advance(by: .milliseconds(3900))
        #expect(clock.sleeperCount == 1, "3.9 s of the 4 s limit: still waited for")
        clock.advance(by: .milliseconds(100))
        let ended = await waiting.value
        release.signal()
        #expect(ended == "timed out")
    }

    @Test("quitting stops the wait for work under way at once")
    func abandoned() async throws {
        let clock = ManualClock()
        let watchdog = AnalysisWatchdog(limitSeconds: 4, clock: ElapsedClock(clock, executor: OwnThreads.shared))
        let quitting = AnalysisAbandonment()
        let release = DispatchSemaphore(value: 0)
        let (started, starting) = AsyncStream<Void>.makeStream()
        let waiting = Task {
            Self.ending(await watchdog.run(abandonedBy: quitting) { () -> Int in
                starting.yield()
                release.wait()
                return 1
            })
        }
        for await _ in started { break }
        quitting.abandon()
        let ended = await waiting.value
        release.signal()
        #expect(ended == "abandoned")
        #expect(clock.sleeperCount == 0, "nothing is left waiting on the clock")
    }
}
