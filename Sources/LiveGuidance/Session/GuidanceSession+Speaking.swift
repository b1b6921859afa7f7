import AssistCore
import Foundation
import Speech

extension GuidanceSession {
    // MARK: Speaking

    /// Queues a session sentence at `time` on the session clock.
    func say(_ utterance: Utterance, at time: Double? = nil) {
        _ = say(Announcement(utterance), at: time ?? nowSeconds)
    }

    func sayAll(_ announcements: [Announcement], at time: Double) {
        for announcement in announcements { _ = say(announcement, at: time) }
    }

    /// Queues an announcement (and vibrates); returns its `--json` records. Live, it also notes
    /// where audio time lies on the session clock, to place its first sample.
    func say(_ announcement: Announcement, at time: Double) -> [AnnouncementRecord] {
        if !configuration.isOffline { noteAudioClock() }
        let outcome = feedback.say(announcement.utterance, vibrating: announcement.vibration)
        var records: [AnnouncementRecord] = []
        switch outcome {
        case .queued(let plan):
            onEvent(.said(SpokenLine(timeSeconds: time, utterance: plan.utterance)))
            records.append(AnnouncementRecord(said: TranscriptEntry.text(for: plan.utterance),
                                              priority: announcement.utterance.priority.description, outcome: "queued",
                                              firstAudioTime: nil, queueID: plan.id))
        case .suppressedAsRepeat:
            records.append(AnnouncementRecord(said: TranscriptEntry.text(for: announcement.utterance),
                                              priority: announcement.utterance.priority.description,
                                              outcome: "suppressed as repeat", firstAudioTime: nil, queueID: nil))
        }
        if announcement.vibration != nil {
            records.append(AnnouncementRecord(said: "[vibration]", priority: announcement.utterance.priority.description,
                                              outcome: "vibrated", firstAudioTime: nil, queueID: nil))
        }
        return records
    }

    /// Live: audio time t is heard at session time t + offset (+ the device's latency).
    private func noteAudioClock() {
        guard case .realTime(let latency) = configuration.clock else { return }
        sessionSecondsAtAudioZero = nowSeconds - feedback.queue.audioTimeSeconds + latency
    }

    func collectPlayback() {
        if !configuration.isOffline { noteAudioClock() }
        history.collect(from: feedback.queue, sessionSecondsAtAudioZero: configuration.isOffline ? 0 : sessionSecondsAtAudioZero)
    }

    // MARK: Reports

    /// Holds a frame's report until its first audio is known.
    func pending(_ report: CycleReport, captureSeconds: Double) {
        pendingReports.append(report)
        captureSecondsOfPending.append(captureSeconds)
        collectPlayback()
        flushReports(all: false)
    }

    /// A report line for a session event ("activated", "end of video").
    func emitEvent(_ name: String) {
        let now = nowSeconds
        let report = CycleReport(time: now, state: state, mode: policy.mode.name, paused: paused, event: name,
                                 objects: [], tracks: [], corridor: nil, quality: nil, announcements: [], timings: CycleTimings())
        pendingReports.append(report)
        captureSecondsOfPending.append(now)
        flushReports(all: false)
    }

    /// Emits, in order, the reports whose first audio is known (a report waits for at most 10 s
    /// of session time); `all` emits the rest too, at the end.
    func flushReports(all: Bool) {
        while var report = pendingReports.first {
            let capture = captureSecondsOfPending[0]
            var anyQueued = false
            var firstAudio: Double?
            for index in report.announcements.indices {
                guard let id = report.announcements[index].queueID else { continue }
                anyQueued = true
                if let start = history.startSeconds(ofQueueID: id) {
                    report.announcements[index].firstAudioTime = start
                    firstAudio = min(firstAudio ?? start, start)
                }
            }
            let resolved = !anyQueued || firstAudio != nil || all || nowSeconds - capture > 10
            guard resolved else { break }
            if let firstAudio, report.event == nil {
                let milliseconds = max(0, firstAudio - capture) * 1000
                report.timings.captureToFirstAudioMilliseconds = milliseconds
                captureToFirstAudioMilliseconds.append(milliseconds)
            }
            pendingReports.removeFirst()
            captureSecondsOfPending.removeFirst()
            onEvent(.cycle(report))
        }
    }
}
