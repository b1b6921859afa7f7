import Speech

/// The session's speech on the session clock: when each utterance was queued, when it started and
/// ended being heard, which were taken out unheard, and the `--json` report lines waiting until
/// what their frame said was heard. One job, kept apart from the loop that makes the speech: the
/// loop says what it queued, took out and when; the timeline answers what was heard when.
///
/// It reads no clock: every moment comes as a value on the session clock (input time offline,
/// the injected wall clock live), so it is tested alone with made-up moments.
final class SpeechTimeline {
    /// Everything heard so far (the transcript).
    let history = PlaybackHistory()
    /// Live: where audio time 0 lies on the session clock (0 offline, where the two are one clock).
    private(set) var sessionSecondsAtAudioZero = 0.0
    /// When each queued utterance not yet heard was queued (for the stale backlog, and answers waiting).
    private var queuedAtSeconds: [Int: (seconds: Double, utterance: Utterance)] = [:]
    /// Queue IDs taken out before they were heard (listed as superseded in `--json`).
    private var supersededQueueIDs: Set<Int> = []
    /// Report lines in order, each with its frame's capture moment, until its first audio is known.
    private var waitingReports: [(report: CycleReport, captureSeconds: Double)] = []
    /// Capture → first audible sample of what each analysed frame said, in milliseconds.
    private(set) var captureToFirstAudioMilliseconds: [Double] = []

    /// A report still waits at most this long (session seconds) for the first audio of its frame.
    static let reportWaitLimitSeconds = 10.0

    /// Live: audio time t is heard at session time t + offset, the device's latency later.
    func placeAudio(atSessionSeconds now: Double, audioSeconds: Double, latencySeconds: Double) {
        sessionSecondsAtAudioZero = now - audioSeconds + latencySeconds
    }

    func noteQueued(_ plan: PlannedUtterance, atSeconds time: Double) {
        queuedAtSeconds[plan.id] = (time, plan.utterance)
    }

    /// Utterances taken out of the queue before they were heard (a newer scene, "stop", the end).
    func noteSuperseded(_ plans: [PlannedUtterance]) {
        for plan in plans {
            supersededQueueIDs.insert(plan.id)
            queuedAtSeconds[plan.id] = nil
        }
    }

    /// Copies what the queue played since the last call; returns what started being heard, in order.
    func collect(from queue: UtteranceQueue) -> [PlaybackHistory.Heard] {
        history.collect(from: queue, sessionSecondsAtAudioZero: sessionSecondsAtAudioZero)
    }

    /// Whether an utterance queued and not yet heard has waited longer than `limitSeconds` at
    /// `time` (answers never go stale: the user asked for them).
    func hasStaleBacklog(atSeconds time: Double, limitSeconds: Double) -> Bool {
        queuedAtSeconds = queuedAtSeconds.filter { history.startSeconds(ofQueueID: $0.key) == nil }
        return queuedAtSeconds.values.contains { $0.utterance.priority != .answer && time - $0.seconds > limitSeconds }
    }

    /// Whether an answer the user asked for was queued and not yet heard.
    var answerWaiting: Bool {
        queuedAtSeconds.contains { id, queued in
            queued.utterance.priority == .answer && history.startSeconds(ofQueueID: id) == nil
        }
    }

    /// Holds a report line until the first audio of its announcements is known.
    func hold(_ report: CycleReport, captureSeconds: Double) {
        waitingReports.append((report, captureSeconds))
    }

    /// The report lines, in order, whose announcements were all heard or taken out by `now` (or
    /// that waited `reportWaitLimitSeconds`); `all` hands out the rest too, at the end.
    func resolvedReports(atSeconds now: Double, all: Bool) -> [CycleReport] {
        var resolvedLines: [CycleReport] = []
        while let (original, capture) = waitingReports.first {
            var report = original
            var firstAudio: Double?
            var waiting = false
            for index in report.announcements.indices {
                guard let id = report.announcements[index].queueID else { continue }
                if let start = history.startSeconds(ofQueueID: id) {
                    report.announcements[index].firstAudioTime = start
                    firstAudio = min(firstAudio ?? start, start)
                } else if supersededQueueIDs.contains(id) {
                    report.announcements[index].outcome = "superseded"
                } else {
                    waiting = true
                }
            }
            // Written once every announcement of the frame was heard or taken out: a report written
            // at the first one heard listed the others as said although some were then taken out
            // unheard (the spoken contract, part a).
            guard !waiting || all || now - capture > Self.reportWaitLimitSeconds else { break }
            if let firstAudio, report.event == nil {
                let milliseconds = max(0, firstAudio - capture) * 1000
                report.timings.captureToFirstAudioMilliseconds = milliseconds
                captureToFirstAudioMilliseconds.append(milliseconds)
            }
            waitingReports.removeFirst()
            resolvedLines.append(report)
        }
        return resolvedLines
    }
}
