import Guidance
import Perception
import Speech

/// Continuous scanning: each confirmed object once when it appears, again when it came markedly
/// closer (a closer `DistanceBands.approach` band); nothing while nothing changes.
struct ContinuousPolicy: Sendable {
    /// Five sentences take about 10 seconds to speak; more in one go would be out of date before
    /// they end. The rest wait for the next frame.
    static let maximumObjectsPerFrame = 5

    /// The band each track was last spoken in (or moved away to since, silently).
    private var spokenBands: [TrackID: Int] = [:]
    /// The band each track is in now, with hysteresis.
    private var currentBands: [TrackID: Int] = [:]

    /// `alreadySaid`: tracks another policy (hazards) has announced; they count as said.
    mutating func announcements(for tracking: TrackingUpdate, alreadySaid: Set<TrackID>,
                                speech: SpokenObjects) -> [Announcement] {
        let live = Set(tracking.tracks.map(\.id))
        spokenBands = spokenBands.filter { live.contains($0.key) }
        currentBands = currentBands.filter { live.contains($0.key) }

        var worthSaying: [(track: TrackedObject, object: LocatedObject, band: Int)] = []
        for track in tracking.tracks where track.isVisible && track.isConfirmed {
            let object = speech.located(track)
            let band = DistanceBands.approach.band(forMeters: object.distance.meters, previous: currentBands[track.id])
            currentBands[track.id] = band
            if alreadySaid.contains(track.id) {
                spokenBands[track.id] = min(spokenBands[track.id] ?? band, band)
                continue
            }
            if let spoken = spokenBands[track.id], band >= spoken {
                spokenBands[track.id] = max(spoken, band)  // moved away: coming back closer is news again
                continue
            }
            worthSaying.append((track, object, band))
        }
        guard !worthSaying.isEmpty else { return [] }

        var announcements: [Announcement] = []
        var unmatched = worthSaying
        for mention in speech.describer.mentions(of: worthSaying.map(\.object)).prefix(Self.maximumObjectsPerFrame) {
            var ids: [TrackID] = [], band = Int.max
            for object in mention.objects {
                guard let index = unmatched.firstIndex(where: { $0.object == object }) else { continue }
                let entry = unmatched.remove(at: index)
                ids.append(entry.track.id)
                band = min(band, entry.band)
                spokenBands[entry.track.id] = entry.band
            }
            let key = Self.contentKey(for: ids)
            announcements.append(Announcement(Utterance(speech.describer.sentence(for: mention), priority: .newObject,
                                                        directionDegrees: mention.objects[0].direction.angleDegrees,
                                                        contentKey: key, distanceBand: band),
                                                mentions: mention.objects))
        }
        return announcements
    }

    /// The queue's content key of an announcement about these tracks: "track#3+track#7".
    static func contentKey(for ids: [TrackID]) -> String {
        ids.map { "track\($0)" }.joined(separator: "+")
    }

    /// The tracks an announcement's content key names (none for other keys).
    static func trackIDs(inContentKey key: String) -> [TrackID] {
        key.split(separator: "+").compactMap { part in
            guard part.hasPrefix("track#"), let number = Int(part.dropFirst(6)) else { return nil }
            return TrackID(rawValue: number)
        }
    }

    /// These tracks' announcements were never heard (the channel was busy until they went
    /// stale): they count as unsaid, so the next frame announces them again where they are now.
    mutating func notHeard(_ ids: [TrackID]) {
        for id in ids { spokenBands[id] = nil }
    }
}
