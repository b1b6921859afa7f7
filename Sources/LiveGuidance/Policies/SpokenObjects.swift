import AssistCore
import Foundation
import Guidance
import Perception

/// Sentences about objects, in the describer's words, for every mode: one object's sentence,
/// the explore item, and the finer distances of navigation.
struct SpokenObjects: Sendable {
    let describer: SceneDescriber
    let phrases: ModePhrases

    /// The track's latest sighting with its filtered distance in place of the frame's raw one: the
    /// filter is steadier, so what is said does not jump with each frame's noise.
    func located(_ track: TrackedObject) -> LocatedObject {
        guard let meters = track.distanceMeters, meters.isFinite, meters > 0 else { return track.object }
        let raw = track.object.distance
        return LocatedObject(detection: track.object.detection, direction: track.object.direction,
                             distance: DistanceEstimate(meters: meters, method: raw.method ?? .combined,
                                                        relativeError: raw.relativeError))
    }

    /// "Chair, 2 meters, left." — nil when the describer would not mention it (below its confidence).
    func sentence(for object: LocatedObject) -> String? {
        describer.mentions(of: [object]).first.map(describer.sentence(for:))
    }

    /// "Bus coming closer, 3 meters, ahead." — nil when the describer would not mention it.
    func approachingSentence(for object: LocatedObject) -> String? {
        guard let mention = describer.mentions(of: [object]).first else { return nil }
        return SentenceFiles.capitalized(SentenceFiles.fill(phrases.hazardApproaching, [
            "object": name(of: object.label), "distance": describer.distancePhrase(mention.distance),
            "direction": mention.directionPhrase]))
    }

    /// The object's singular name ("chair", "table" for "dining table").
    func name(of label: String, count: Int = 1) -> String {
        describer.phrasebook.objectName(label: label, count: count)
    }

    func distancePhrase(meters: Double?) -> String {
        describer.distancePhrase(SpokenDistance(meters: meters, unit: describer.settings.unit))
    }

    /// Distances in the walking corridor: between 1 and 3 meters to the nearest half meter (a step
    /// is about 0.7 m, so the half meter is what tells one step from two); elsewhere as described.
    func obstacleDistancePhrase(meters: Double) -> String {
        guard describer.settings.unit == .meters, meters >= 1, meters < 3 else { return distancePhrase(meters: meters) }
        let halves = (meters * 2).rounded() / 2
        guard halves != halves.rounded() else { return distancePhrase(meters: halves) }
        let forms = describer.phrasebook.distance.meters
        return SentenceFiles.fill(forms.other, ["count": String(format: "%.1f", halves)])
    }

    /// "chair, 2 meters, left" for the exploration summary.
    func exploreItem(for object: LocatedObject) -> String {
        SentenceFiles.fill(phrases.explore.item, ["object": name(of: object.label),
                                                "distance": distancePhrase(meters: object.distance.meters),
                                                "direction": describer.directionPhrase(object.direction)])
    }

    /// The plural a find target is spoken in ("chairs", "people"); a group's own name as it is.
    func plural(of target: FindTarget) -> String {
        if target.categories.count == 1, let label = target.categories.first,
           target.spokenName == label || target.spokenName == name(of: label) {
            return name(of: label, count: 2)
        }
        return target.spokenName
    }
}
