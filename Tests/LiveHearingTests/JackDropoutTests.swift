import Foundation
import Media
import Synchronization
import TestSupport
import Testing

/// What our JACK client does on a dropout, through a real server of the test's own: the dropout
/// is counted and the block after it rises from silence (no click). The dropout is made, not
/// waited for: the server is paused, so its next cycle is late whatever the machine's load.
/// (Whether a dropout happens by itself depends on the machine; that is measured by
/// `scripts/bench --hearing-live`, beside a client that does nothing, never asserted here.)
@Suite("A JACK dropout is counted and faded in", .serialized)
struct JackDropoutTests {
    /// Written by the process callback, read by the test.
    final class Seen: Sendable {
        /// The client's own output has come back through its input (the loop is connected).
        let looped = Atomic<Bool>(false)
        /// An input block that rose from silence to the full level: a faded-in output block.
        let fadeIn = Atomic<Bool>(false)
    }

    /// Spins (yielding) until `condition` holds; false only after 2 minutes, which catches a hang.
    func waitFor(_ condition: () -> Bool) -> Bool {
        let hangGuard = ContinuousClock.now + .seconds(120)
        while !condition() {
            if ContinuousClock.now > hangGuard { return false }
            sched_yield()   // not a sleep: waits for an event, however long it takes
        }
        return true
    }

    @Test("the server pausing makes a dropout; the client counts it and the next block fades in from silence")
    func dropoutCountedAndFaded() throws {
        let jack = try JackServer()
        defer { jack.stop() }
        let seen = Seen()
        let level: Float = 0.5
        // A constant output, fed back into the client's own input (one period later): the input
        // is `level` everywhere, except the block after a faded one, which rises from 0.
        let stream = try JackDuplexStream(clientName: "dropout-test", serverName: jack.name, inputChannels: 1) { input, output, frames in
            if input[frames - 1] == level && input[0] == level { seen.looped.store(true, ordering: .relaxed) }
            if input[0] == 0, input[1] > 0, input[frames - 1] > input[1], input[frames - 1] < level, input[frames - 1] > 0.9 * level {
                seen.fadeIn.store(true, ordering: .relaxed)
            }
            output.update(repeating: level, count: frames * 2)
        }
        defer { stream.close() }
        try jack.run("jack_disconnect", ["system:capture_1", "dropout-test:in_1"])
        #expect(try jack.run("jack_connect", ["dropout-test:out_1", "dropout-test:in_1"]).status == 0)
        try #require(waitFor { seen.looped.load(ordering: .relaxed) })
        let before = stream.dropoutCount
        seen.fadeIn.store(false, ordering: .relaxed)
        // Paused for at least 20 ms (15 periods): the server's timer finds its next cycle late.
        // A longer pause (a busy machine) makes the same dropout.
        let pid = try #require(jack.processIdentifier)
        kill(pid, SIGSTOP)
        let resume = ContinuousClock.now + .milliseconds(20)
        while ContinuousClock.now < resume { sched_yield() }
        kill(pid, SIGCONT)
        #expect(waitFor { stream.dropoutCount > before }, "no dropout counted after the server paused")
        #expect(waitFor { seen.fadeIn.load(ordering: .relaxed) }, "no block faded in after the dropout")
        #expect(stream.isActive)
    }
}
