import Guidance
import Speech

/// What the camera sees as a whole: something, nothing, or nothing that can be judged.
enum ViewCondition: Sendable, Equatable {
    case objects
    case empty
    case tooDark
    case tooBlurred

    /// Empty only once no detection is left and no confirmed track lingers: a single missed
    /// frame is not worth "No object detected." followed by the same objects again.
    init(_ observation: SceneObservation, describer: SceneDescriber) {
        switch observation.report.quality {
        case .tooDark?: self = .tooDark
        case .tooBlurred?: self = .tooBlurred
        case .ok?, nil:
            let seen = !describer.orderedForSpeech(observation.report.objects).isEmpty
                || observation.tracking.tracks.contains(where: \.isConfirmed)
            self = seen ? .objects : .empty
        }
    }
}

/// Says "Too dark." / "Hold the camera steady." / "No object detected." once per episode:
/// on the frame the view turns into that condition, not on every frame it stays so.
struct ViewConditionNotice: Sendable {
    private var last: ViewCondition?

    /// The notice for this frame, if the condition just began. `reportsEmptyView` is false where
    /// an empty view is no news (find mode, navigation).
    mutating func notice(for condition: ViewCondition, reportsEmptyView: Bool, phrases: ModePhrases) -> Announcement? {
        defer { last = condition }
        guard condition != last else { return nil }
        let sentence: String
        switch condition {
        case .objects: return nil
        case .empty:
            guard reportsEmptyView else { return nil }
            sentence = phrases.view.noObject
        case .tooDark: sentence = phrases.view.tooDark
        case .tooBlurred: sentence = phrases.view.tooBlurred
        }
        return Announcement(Utterance(sentence, priority: .status, contentKey: "view:\(condition)"))
    }

    /// Forget the episode (after a mode change the new mode starts afresh).
    mutating func reset() { last = nil }
}
