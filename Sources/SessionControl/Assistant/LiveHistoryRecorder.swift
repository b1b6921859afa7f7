import Dispatch
import AssistCore
import Foundation
import LiveGuidance
import Perception
import Storage

/// Records what a live run announces in the detection history ("what did you detect recently?"),
/// as `assist see` does for pictures. The database is written on a queue of its own, so a slow
/// disk never holds up the guidance loop; `finish` waits for the writes and adds the run's frames
/// and announcements to the usage statistics. A failed write is told through `warn`, never fatal.
public final class LiveHistoryRecorder: @unchecked Sendable {
    // The stores are only touched on `queue`, one write after another.
    private let history: DetectionHistory
    private let usage: UsageStatistics
    private let usageSession: Int64?
    private let warn: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "assist.live-history")
    private var objectsAnnounced = 0

    public init(history: DetectionHistory, usage: UsageStatistics, usageSession: Int64?,
                warn: @escaping @Sendable (String) -> Void) {
        self.history = history
        self.usage = usage
        self.usageSession = usageSession
        self.warn = warn
    }

    /// Called for each session event, on the session's task: only hands the objects over.
    public func note(_ event: SessionEvent) {
        guard case .cycle(let report) = event, !report.mentioned.isEmpty else { return }
        let objects = report.mentioned, mode = "live \(report.mode)"
        queue.async { [self] in
            objectsAnnounced += objects.count
            do {
                try Self.record(objects, mode: mode, in: history)
            } catch {
                warn("The detection history could not be saved: \(userMessage(for: error))")
            }
        }
    }

    /// Waits for the pending writes, then records the run's use.
    public func finish(framesAnalysed: Int) {
        queue.sync {
            guard let usageSession else { return }
            do {
                try usage.recordProgress(session: usageSession, addingFrames: framesAnalysed,
                                         objectsAnnounced: objectsAnnounced)
            } catch {
                warn("The usage statistics could not be saved: \(userMessage(for: error))")
            }
        }
    }

    /// The one way an announced object becomes a history row (pictures and live runs alike).
    public static func record(_ announced: [LocatedObject], mode: String, in history: DetectionHistory) throws {
        let now = Date()
        try history.record(announced.map {
            AnnouncedDetection(label: $0.label, confidence: Double($0.confidence), direction: $0.direction.horizontal.rawValue,
                               distanceMeters: $0.distance.meters, mode: mode, announcedAt: now)
        }, now: now)
    }
}
