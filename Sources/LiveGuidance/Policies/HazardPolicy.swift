import Guidance
import Speech

/// Hazard alerts, in every mode: objects of the user's hazard categories (vehicles, bicycles, …)
/// that are near or closing in get their own tone at the rule's loudness, a vibration, and go
/// before anything else. Said again only when the hazard came into a closer band or started to
/// close in, never while nothing changes.
struct HazardPolicy: Sendable {
    /// A hazard this close is worth an alert even standing still: a car at 30 km/h covers 10 m in
    /// 1.2 s, less than a pedestrian needs to react and step back.
    static let nearMeters = 10.0

    private struct Spoken: Sendable {
        var band: Int
        var approaching: Bool
    }
    private var spoken: [TrackID: Spoken] = [:]

    /// Every track this policy has announced, so the other modes do not announce it again as an
    /// ordinary object.
    var announcedTrackIDs: Set<TrackID> { Set(spoken.keys) }

    /// Whether the track is a hazard now: of a hazard category, and near (or of unknown distance,
    /// where safety wins) or closing in.
    static func isActive(_ track: TrackedObject, settings: GuidanceSettings) -> Bool {
        guard track.isVisible, track.isConfirmed, settings.hazards[track.label] != nil else { return false }
        let near = (track.distanceMeters ?? track.object.distance.meters).map { $0 <= nearMeters } ?? true
        return near || track.timeToCollisionSeconds != nil
    }

    mutating func announcements(for tracking: TrackingUpdate, settings: GuidanceSettings,
                                speech: SpokenObjects) -> [Announcement] {
        let live = Set(tracking.tracks.map(\.id))
        spoken = spoken.filter { live.contains($0.key) }

        var alerts: [(meters: Double, announcement: Announcement)] = []
        for track in tracking.tracks where Self.isActive(track, settings: settings) {
            guard let rule = settings.hazards[track.label] else { continue }
            let object = speech.located(track)
            let meters = object.distance.meters
            let previous = spoken[track.id]
            let band = DistanceBands.approach.band(forMeters: meters, previous: previous?.band)
            let approaching = track.timeToCollisionSeconds != nil
            if let previous, band >= previous.band, !(approaching && !previous.approaching) {
                spoken[track.id] = Spoken(band: band, approaching: approaching || previous.approaching)
                continue
            }
            guard let sentence = approaching ? speech.approachingSentence(for: object) : speech.sentence(for: object)
            else { continue }
            spoken[track.id] = Spoken(band: band, approaching: approaching || previous?.approaching == true)

            let utterance = Utterance([sentence],
                                      priority: .hazard, directionDegrees: object.direction.angleDegrees,
                                      contentKey: "hazard\(track.id)", distanceBand: band, earcon: rule.earcon,
                                      severity: rule.intensity)
            let vibration = VibrationPattern.obstacle(distanceMeters: meters ?? Self.nearMeters / 2)
            alerts.append((meters ?? .infinity, Announcement(utterance, vibration: vibration, mentions: [object])))
        }
        return alerts.sorted { $0.meters < $1.meters }.map(\.announcement)
    }
}
