import AssistCore
import Guidance

/// A frame the schedule chose to analyse: why, and what later frames are compared with.
struct PlannedAnalysis {
    var reason: AnalysisSchedule.Reason
    var thumbnail: FrameThumbnail?
    var atSeconds: Double
}

extension GuidanceSession {
    /// What the analysis schedule weighs besides the frame: the mode, the battery saver, the
    /// user's last command and the hazard categories.
    var scheduleSituation: AnalysisSchedule.Situation {
        AnalysisSchedule.Situation(mode: policy.mode, batterySaving: pacing.batterySaving,
                                   lastRequestSeconds: lastCommandSeconds, hazardLabels: Set(policy.settings.hazards.keys))
    }

    /// Whether to analyse `frame`, seen at `now` on the session clock; nil lets it pass (the
    /// tracker carries the scene forward). A request waiting for an answer is always analysed.
    func plannedAnalysis(of frame: Frame, atSeconds now: Double) -> PlannedAnalysis? {
        let thumbnail = schedule.comparesFrames ? FrameThumbnail(frame.image) : nil
        if requestPending || !pendingQuestions.isEmpty {
            return PlannedAnalysis(reason: .request, thumbnail: thumbnail, atSeconds: now)
        }
        // Objects held back while the channel was busy are announced from a fresh frame as soon
        // as it is free, not at the still scene's next due analysis (up to 1/3 s later).
        if announcementsHeldBack && !speechChannelBusy {
            return PlannedAnalysis(reason: .heldBackAnnouncement, thumbnail: thumbnail, atSeconds: now)
        }
        guard let reason = schedule.reason(toAnalyse: thumbnail, atSeconds: now, in: scheduleSituation) else {
            framesPassedOver += 1
            return nil
        }
        return PlannedAnalysis(reason: reason, thumbnail: thumbnail, atSeconds: now)
    }

    /// Tells the schedule what the analysed frame showed.
    func noteAnalysed(_ planned: PlannedAnalysis, tracks: [TrackedObject]) {
        schedule.analysed(planned.thumbnail, atSeconds: planned.atSeconds, tracks: tracks, in: scheduleSituation)
    }
}
