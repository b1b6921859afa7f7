import AssistCore
import Guidance
import Perception
import Speech

/// Answers about one frame as a whole: "scan now" (the full description) and "explore scene"
/// (the structured summary: how many objects, then the closest). Each answer has its own content key, so the queue
/// never holds back an answer the user asked for because it was said a moment ago.
struct SceneSnapshot: Sendable {
    let speech: SpokenObjects
    let settings: GuidanceSettings

    /// Everything the describer says about the frame (up to its maximum of objects); when nothing
    /// was found, a suggestion to try better light or another angle. One announcement per sentence:
    /// the queue shortens a long message by dropping phrases, and none of these may be lost.
    func fullDescription(of observation: SceneObservation) -> [Announcement] {
        let describer = speech.describer
        let report = observation.report
        let key = "scan@\(observation.timeSeconds)"
        let mentions = (report.quality ?? .ok) == .ok ? describer.mentions(of: report.objects) : []
        guard mentions.isEmpty else {
            return mentions.enumerated().map { index, mention in
                Announcement(Utterance(describer.sentence(for: mention), priority: .answer,
                                       directionDegrees: mention.objects[0].direction.angleDegrees,
                                       contentKey: "\(key)#\(index)"), mentions: mention.objects)
            }
        }
        // The describer's own words for a dark, blurred or empty picture, then the suggestion.
        let message = describer.sentences(for: report.objects, imageQuality: report.quality ?? .ok)
        return (message + [speech.phrases.view.nothingFoundSuggestion]).enumerated().map { index, phrase in
            Announcement(Utterance(phrase, priority: .answer, contentKey: "\(key)#\(index)",
                                   earcon: index == 0 ? .nothingFound : nil))
        }
    }

    /// The objects an exploration names: hazards first, then the describer's order (prioritised
    /// categories, then closest), cut to `exploreMaximumObjects`; then spoken closest first
    /// (unknown distances last). The summary is said in parts of at most 3 s that the user can stop
    /// or skip, so what matters most comes first: how many objects are in view, then the nearest
    /// (the spoken contract, issue 14 item 4c). `inView` counts every object above the threshold.
    func exploredObjects(in report: SceneReport) -> (named: [LocatedObject], inView: Int) {
        let ordered = speech.describer.orderedForSpeech(report.objects)
        let hazards = ordered.indices.filter { settings.hazards[ordered[$0].label] != nil }
        let others = ordered.indices.filter { settings.hazards[ordered[$0].label] == nil }
        let chosen = (hazards + others).prefix(max(settings.exploreMaximumObjects, 1)).sorted()
        let named = chosen.sorted { a, b in
            switch (ordered[a].distance.meters, ordered[b].distance.meters) {
            case let (da?, db?) where da != db: return da < db
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a < b
            }
        }
        return (named.map { ordered[$0] }, ordered.count)
    }

    /// "4 objects, closest first: chair, 2 meters, left; person, 3 meters, ahead; …". The count is
    /// of every object in view, also those past `exploreMaximumObjects` that are not named.
    func exploreSummary(of observation: SceneObservation) -> Announcement {
        let (objects, inView) = exploredObjects(in: observation.report)
        let key = "explore@\(observation.timeSeconds)"
        guard !objects.isEmpty else {
            let message: String
            switch observation.report.quality {
            case .tooDark?: message = speech.phrases.view.tooDark
            case .tooBlurred?: message = speech.phrases.view.tooBlurred
            case .ok?, nil: message = speech.phrases.view.noObject
            }
            return Announcement(Utterance([message, speech.phrases.view.nothingFoundSuggestion], priority: .answer,
                                          contentKey: key, earcon: .nothingFound))
        }
        let explore = speech.phrases.explore
        let count = SentenceFiles.fill(explore.count.form(count: inView), ["count": String(inView)])
        let items = objects.map(speech.exploreItem(for:)).joined(separator: explore.itemSeparator)
        let summary = SentenceFiles.capitalized(SentenceFiles.fill(inView == 1 ? explore.summaryOne : explore.summary,
                                                                   ["count": count, "items": items]))
        return Announcement(Utterance(summary, priority: .answer, contentKey: key), mentions: objects)
    }
}
