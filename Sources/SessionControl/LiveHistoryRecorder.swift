import Dispatch
import AssistCore
import Foundation
import LiveGuidance
import Perception

/// Records what a live run announces in the detection history ("what did you detect recently?"),
/// as `assist see` does for pictures. The database is written on a queue of its own, so a slow
/// disk never holds up the guidance loop; `finish` waits for the writes and adds the run's frames
/// and announcements to the usage statistics.
final class LiveHistoryRecorder: @unchecked Sendable {
    // UserData is only touched on `queue`, one write after another.
    private let userData: UserData
    private let usageSession: Int64?
    private let queue = DispatchQueue(label: "assist.live-history")
    private var objectsAnnounced = 0

    init(userData: UserData, usageSession: Int64?) {
        self.userData = userData
        self.usageSession = usageSession
    }

    /// Called for each session event, on the session's task: only hands the objects over.
    func note(_ event: SessionEvent) {
        guard case .cycle(let report) = event, !report.mentioned.isEmpty else { return }
        let objects = report.mentioned, mode = "live \(report.mode)"
        queue.async { [self] in
            objectsAnnounced += objects.count
            userData.record(objects, mode: mode, session: nil)
        }
    }

    /// Waits for the pending writes, then records the run's use.
    func finish(framesAnalysed: Int) {
        queue.sync {
            guard let usageSession else { return }
            do {
                try userData.usage.recordProgress(session: usageSession, addingFrames: framesAnalysed,
                                                  objectsAnnounced: objectsAnnounced)
            } catch {
                UserData.warn("The usage statistics could not be saved: \(userMessage(for: error))")
            }
        }
    }
}
