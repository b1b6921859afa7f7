import Foundation
@testable import LiveGuidance
@testable import SessionControl
import Synchronization
import Testing
import TestSupport

/// The vision assistant runs its session with the adapters beside it (issue 36): the adapters
/// are running before the session says a word and stopped once it has ended, and a shutdown of
/// the assistant's group ends the session as "exit" does, also when it comes before the session
/// exists. Offline sessions over scripted frames: nothing waits on the wall clock.
@Suite("The vision assistant: its session and adapters as one group")
struct VisionAssistantTests {
    /// What happened, in order, across the session's task and the adapters'.
    final class Events: Sendable {
        let list = Mutex<[String]>([])
        func note(_ event: String) { list.withLock { $0.append(event) } }
        var all: [String] { list.withLock { $0 } }
    }

    static func adapter(_ name: String, events: Events) -> SessionAdapter {
        SessionAdapter(name: name) {
            events.note("\(name) started")
            return { events.note("\(name) stopped") }
        }
    }

    @Test("every adapter is running before the session's first sentence, and stopped after its last")
    func adaptersAroundTheSession() async throws {
        let run = try LiveSettingsSession(seconds: 3)
        let events = Events()
        run.session.schedule(atSeconds: 0) { [session = run.session] in
            events.note("session at 0 s, \(session.controls.snapshot.state)")
        }
        let session = run.session
        let ending = try await OwnThreads.run {
            try await LiveGuidanceRun.run(session, beside: [Self.adapter("socket", events: events), Self.adapter("console", events: events)],
                                          endedBy: SessionEnder())
        }
        events.note("run returned")
        #expect(ending == .inputEnded)
        let all = events.all
        let sessionAt = try #require(all.firstIndex { $0.hasPrefix("session at 0 s") }, "\(all)")
        for name in ["socket", "console"] {
            let started = try #require(all.firstIndex(of: "\(name) started"), "\(all)")
            let stopped = try #require(all.firstIndex(of: "\(name) stopped"), "\(all)")
            #expect(started < sessionAt, "\(name) started after the session ran: \(all)")
            #expect(stopped > sessionAt && stopped < all.firstIndex(of: "run returned")!, "\(all)")
        }
        #expect(run.saidTexts.first == "Assistive Vision activated.", "\(run.saidTexts)")
        #expect(run.saidTexts.last == "End of video.", "\(run.saidTexts)")
    }

    @Test("asked to end before the session existed (Ctrl-C while the models load), it ends as exit does as soon as it starts")
    func endedBeforeItStarted() async throws {
        let run = try LiveSettingsSession(seconds: 60)
        let ender = SessionEnder()
        ender.end()
        let session = run.session
        let ending = try await OwnThreads.run { try await LiveGuidanceRun.run(session, beside: [], endedBy: ender) }
        #expect(ending == .userQuit)
        // Not "activated" first: the user asked to end before it was.
        #expect(run.saidTexts == ["Goodbye."])
        // Ended at its start, not at the end of the minute of video.
        #expect((run.said.last?.timeSeconds ?? 60) < 5, "\(run.said.map { "\($0.timeSeconds) \($0.utterance.text)" })")
    }

    @Test("asked to end while it runs, the session says goodbye and its adapters stop")
    func endedWhileRunning() async throws {
        let run = try LiveSettingsSession(seconds: 60)
        let events = Events()
        let ender = SessionEnder()
        // The group shutting down at 2 s of the video: what Ctrl-C does to a live run.
        run.session.schedule(atSeconds: 2) { ender.end() }
        let session = run.session
        let ending = try await OwnThreads.run {
            try await LiveGuidanceRun.run(session, beside: [Self.adapter("socket", events: events)], endedBy: ender)
        }
        #expect(ending == .userQuit)
        #expect(run.saidTexts.last == "Goodbye.", "\(run.saidTexts)")
        #expect(events.all == ["socket started", "socket stopped"])
    }
}
