import Foundation
@testable import LiveGuidance
import Speech
import Testing

/// The speech timeline alone: moments are given as values on the session clock, and the queue is
/// played by rendering its audio, so nothing here waits or reads a clock.
@Suite("Speech timeline")
struct SpeechTimelineTests {
    private let queue = UtteranceQueue(voice: SteadyToneVoice(), settings: UtteranceQueueSettings(pauseSeconds: 0.1))

    private func queued(_ text: String, _ priority: UtterancePriority, into timeline: SpeechTimeline, at seconds: Double) throws -> PlannedUtterance {
        guard case .queued(let plan) = queue.enqueue(Utterance(text, priority: priority, contentKey: text)) else {
            throw TimelineTestFailure(description: "\(text) was not queued")
        }
        timeline.noteQueued(plan, atSeconds: seconds)
        return plan
    }

    private func report(at seconds: Double, saying plans: [PlannedUtterance]) -> CycleReport {
        CycleReport(time: seconds, state: .active, mode: "continuous", paused: false, event: nil, objects: [], tracks: [],
                    corridor: nil, quality: nil,
                    announcements: plans.map { AnnouncementRecord(said: $0.utterance.text, priority: "new object", outcome: "queued",
                                                                   firstAudioTime: nil, queueID: $0.id) },
                    timings: CycleTimings())
    }

    /// Plays `seconds` of the queue (offline, audio time is session time).
    private func play(_ seconds: Double, _ timeline: SpeechTimeline) -> [String] {
        _ = queue.renderBlock(frameCount: Int(seconds * queue.sampleRateHz))
        return timeline.collect(from: queue).map(\.utterance.text)
    }

    @Test("a frame's report waits until what it said is heard, then carries when that was and the time from capture to it")
    func reportWaitsForFirstAudio() throws {
        let timeline = SpeechTimeline()
        let chair = try queued("Chair, 2 meters, left.", .newObject, into: timeline, at: 0)
        timeline.hold(report(at: 0, saying: [chair]), captureSeconds: 0)
        #expect(timeline.resolvedReports(atSeconds: 0, all: false).isEmpty, "nothing heard yet")
        #expect(play(0.05, timeline) == ["Chair, 2 meters, left."])
        let lines = timeline.resolvedReports(atSeconds: 0.05, all: false)
        let line = try #require(lines.first)
        #expect(lines.count == 1)
        let heard = try #require(timeline.history.startSeconds(ofQueueID: chair.id))
        #expect(line.announcements.first?.firstAudioTime == heard)
        #expect(line.timings.captureToFirstAudioMilliseconds == heard * 1000)
        #expect(timeline.captureToFirstAudioMilliseconds == [heard * 1000])
    }

    @Test("what is taken out before it was heard is reported as superseded, and the report no longer waits for it")
    func supersededIsReported() throws {
        let timeline = SpeechTimeline()
        let first = try queued("Chair, 2 meters, left.", .newObject, into: timeline, at: 0)
        let second = try queued("Door, 4 meters, ahead.", .newObject, into: timeline, at: 0)
        timeline.hold(report(at: 0, saying: [first, second]), captureSeconds: 0)
        _ = play(0.05, timeline)
        #expect(timeline.resolvedReports(atSeconds: 0.05, all: false).isEmpty, "the door is still to be said")
        timeline.noteSuperseded(queue.stop())
        let line = try #require(timeline.resolvedReports(atSeconds: 0.05, all: false).first)
        #expect(line.announcements.map(\.outcome) == ["queued", "superseded"])
        #expect(line.announcements[1].firstAudioTime == nil)
    }

    @Test("a backlog is stale once something waited longer than the limit unheard; an answer never goes stale")
    func staleBacklog() throws {
        let timeline = SpeechTimeline()
        _ = try queued("The page reads: one two three four five six.", .answer, into: timeline, at: 0)
        _ = try queued("Chair, 2 meters, left.", .newObject, into: timeline, at: 1)
        #expect(!timeline.hasStaleBacklog(atSeconds: 3, limitSeconds: 2.5), "the chair waited 2 s, the answer does not count")
        #expect(timeline.hasStaleBacklog(atSeconds: 3.6, limitSeconds: 2.5))
        #expect(timeline.answerWaiting)
    }

    @Test("live, audio time is placed on the session clock: an utterance is heard where the clock stood when its audio began")
    func liveAudioPlacement() throws {
        let timeline = SpeechTimeline()
        _ = play(1, timeline)   // a second of silence played before the session's clock stood at 5 s
        let audioAtPlacement = queue.audioTimeSeconds
        timeline.placeAudio(atSessionSeconds: 5, audioSeconds: audioAtPlacement, latencySeconds: 0.02)
        let chair = try queued("Chair, 2 meters, left.", .newObject, into: timeline, at: 5)
        _ = play(0.05, timeline)
        let record = try #require(queue.playbackLog.first { $0.id == chair.id })
        let audioStart = Double(record.startFrame) / queue.sampleRateHz
        #expect(audioStart >= 1, "played after the second of silence")
        // Heard where the audio began, placed on the session clock: 5 s stood for audio time 1 s, 20 ms later at the ear.
        #expect(timeline.history.startSeconds(ofQueueID: chair.id) == audioStart + (5 - audioAtPlacement + 0.02))
    }
}

private struct TimelineTestFailure: Error, CustomStringConvertible {
    let description: String
}
