import AssistCore
import Foundation
import Perception
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
            // Printed as said when it starts being heard (see `collectPlayback`), not now.
            speechTimeline.noteQueued(plan, atSeconds: time)
            for part in [plan] + plan.laterParts {
                records.append(AnnouncementRecord(said: TranscriptEntry.text(for: part.utterance),
                                                  priority: announcement.utterance.priority.description, outcome: "queued",
                                                  firstAudioTime: nil, queueID: part.id))
            }
        case .abandoned:
            break
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

    /// Says a frame's announcements in order, but holds back an object announcement while the
    /// speech channel is busy (`SessionConfiguration.speechLeadSeconds`): queued behind seconds
    /// of speech it would be heard describing a picture that old. The objects it named are made
    /// unsaid in the policy, so the frame analysed once the channel is free announces them with
    /// where they are then (the contract: nothing in view is lost because the channel was busy);
    /// one gone from view by then is not announced. Nothing held back was ever queued, so nothing
    /// announced is dropped: `--json` lists it as "held back". Hazards, answers and notices are
    /// queued as before (hazards cut in). Returns each announcement's `--json` records.
    func sayOrHoldBack(_ announcements: [Announcement], at time: Double) -> [[AnnouncementRecord]] {
        var heldBack = false
        let records = announcements.map { announcement -> [AnnouncementRecord] in
            let utterance = announcement.utterance
            guard utterance.priority == .newObject, policy.announcesAgainWhenNotHeard(contentKey: utterance.contentKey),
                  speechChannelBusy else {
                return say(announcement, at: time)
            }
            heldBack = true
            policy.notHeard(contentKey: utterance.contentKey)
            return [AnnouncementRecord(said: TranscriptEntry.text(for: utterance), priority: utterance.priority.description,
                                       outcome: "held back", firstAudioTime: nil, queueID: nil)]
        }
        announcementsHeldBack = heldBack
        return records
    }

    /// Whether an object announcement queued now would wait longer than `speechLeadSeconds` to be
    /// heard (the later parts of a long answer do not hold it up: it goes between them).
    var speechChannelBusy: Bool {
        feedback.queue.secondsUntilHeard(priority: .newObject) > configuration.speechLeadSeconds
    }

    /// Lets the utterance being heard finish (or, when nothing was heard yet, the first one: the
    /// activation), then drops whatever still waits — unless an answer the user asked for is
    /// among it and `keepingAnswers`: then everything waiting is heard first, for at most 30 s.
    /// Returns whether an answer the user asked for was still being said or waiting when that
    /// bound ran out, so that its end was dropped (the caller says so: nothing is cut silently).
    func settleSpeech(keepingAnswers: Bool) async -> Bool {
        let queue = feedback.queue
        collectPlayback()
        // The later parts of a long answer count as waiting answers too.
        let answerWaiting = keepingAnswers && (speechTimeline.answerWaiting || queue.laterPartCount > 0)
        func speaking() -> Bool {
            guard !queue.isIdle else { return false }
            if answerWaiting { return true }
            guard let last = queue.playbackLog.last else { return true }
            return last.endFrame == nil
        }
        switch configuration.clock {
        case .input(let audio, _):
            // Small blocks: the queue's pause after an utterance is the moment to stop it.
            let block = 64
            var budget = Int(30 * queue.sampleRateHz)
            while speaking() && budget > 0 {
                do { try audio.consume(queue.renderBlock(frameCount: block)) } catch { break }
                renderedAudioFrames += block
                budget -= block
            }
        case .realTime:
            let deadline = wallClock.seconds + (answerWaiting ? 30 : 5)
            while speaking() && wallClock.seconds < deadline { await wallClock.rest(seconds: 0.005) }
        }
        collectPlayback()
        let answerCut = answerWaiting && speaking()
        speechTimeline.noteSuperseded(queue.stop())
        return answerCut
    }

    /// Drops what waits in the queue when an announcement in it has waited longer than
    /// `staleSpeechSeconds`: a warning heard that late describes a scene that has changed. The
    /// objects a dropped announcement named are announced again from the next frame, with where
    /// they are then (the contract: nothing in view is lost because the channel was busy).
    /// What is being said finishes (a sentence cut mid-word helps nobody), and answers the user
    /// asked for do not go stale: they stay in line.
    func dropStaleBacklog(at time: Double) {
        collectPlayback()
        guard speechTimeline.hasStaleBacklog(atSeconds: time, limitSeconds: configuration.staleSpeechSeconds) else { return }
        let dropped = feedback.queue.dropWaiting(keeping: { $0.priority == .answer })
        speechTimeline.noteSuperseded(dropped)
        // No object is silently lost: one still in view is announced again, where it is now.
        for plan in dropped where policy.notHeard(contentKey: plan.utterance.contentKey) {
            feedback.queue.objectLeftView(contentKey: plan.utterance.contentKey)
        }
    }

    /// Live: audio time t is heard at session time t + offset (+ the device's latency).
    private func noteAudioClock() {
        guard case .realTime(let latency) = configuration.clock else { return }
        speechTimeline.placeAudio(atSessionSeconds: nowSeconds, audioSeconds: feedback.queue.audioTimeSeconds, latencySeconds: latency)
    }

    /// Notes what started and ended being heard; what started is reported as said, at the moment
    /// its first sample was heard (what was queued but superseded before it was heard never is).
    func collectPlayback() {
        if !configuration.isOffline { noteAudioClock() }
        for heard in speechTimeline.collect(from: feedback.queue) {
            onEvent(.said(SpokenLine(timeSeconds: heard.startSeconds, utterance: heard.utterance)))
        }
    }

    // MARK: Reports

    /// Holds a frame's report until its first audio is known.
    func pending(_ report: CycleReport, captureSeconds: Double) {
        speechTimeline.hold(report, captureSeconds: captureSeconds)
        collectPlayback()
        flushReports(all: false)
    }

    /// A report line for a session event ("activated", "end of video").
    func emitEvent(_ name: String, analysisSchedule: AnalysisSchedule.Policy? = nil, precision: PrecisionDecision? = nil,
                   announcements: [AnnouncementRecord] = []) {
        let now = nowSeconds
        var report = CycleReport(time: now, state: state, mode: policy.mode.name, paused: paused, event: name,
                                 objects: [], tracks: [], corridor: nil, quality: nil, announcements: announcements,
                                 timings: CycleTimings())
        report.analysisSchedule = analysisSchedule?.rawValue
        report.precision = precision
        speechTimeline.hold(report, captureSeconds: now)
        flushReports(all: false)
    }

    /// Emits, in order, the reports whose first audio is known (a report waits for at most 10 s
    /// of session time); `all` emits the rest too, at the end.
    func flushReports(all: Bool) {
        for report in speechTimeline.resolvedReports(atSeconds: nowSeconds, all: all) { onEvent(.cycle(report)) }
    }
}
