import AssistCore
import Guidance
import Speech

/// Scene navigation: obstacles in the walking corridor, from detections and from the class-free
/// cue, each warned about when it first enters a band and again only when it comes into a closer
/// one (far → near → critical → inside the user's proximity threshold; a short time to
/// collision moves it up early); "Path clear." once when the corridor was blocked and the cue
/// sees it free again. The class-free cue carries no time to collision (it has no track to
/// follow); its urgency comes from distance alone.
struct NavigationPolicy: Sendable {
    private struct Remembered: Sendable {
        /// The band the obstacle is in now (for hysteresis).
        var band: ObstacleBand
        /// The band it was last warned about in, or moved away to since.
        var spokenBand: ObstacleBand
        var lastSeenSeconds: Double
    }
    private var remembered: [String: Remembered] = [:]
    private var blocked = false

    /// The class-free cue flickers (a depth hole, a patch of floor colour); its obstacle is
    /// forgotten only after it has been gone this long, so a flicker is not a new warning.
    static let classFreeMemorySeconds = 3.0

    mutating func reset() {
        remembered = [:]
        blocked = false
    }

    /// Objects of the hazard categories block the corridor like any other, but the hazard policy
    /// warns about them (with their own tone), so they are not warned about twice.
    mutating func announcements(for observation: SceneObservation, settings: GuidanceSettings,
                                speech: SpokenObjects) -> [Announcement] {
        let time = observation.timeSeconds
        let obstacles = CorridorObstacles.find(in: observation, speech: speech)
        let present = Set(obstacles.map(\.key))
        let liveTracks = Set(observation.tracking.tracks.map { "obstacle\($0.id)" })
        remembered = remembered.filter { key, entry in
            present.contains(key) || (key == "corridor" ? time - entry.lastSeenSeconds < Self.classFreeMemorySeconds
                                                          : liveTracks.contains(key))
        }

        var announcements: [Announcement] = []
        for obstacle in obstacles {
            let previous = remembered[obstacle.key]
            guard let urgency = ObstacleUrgency(distanceMeters: obstacle.distanceMeters,
                                                timeToCollisionSeconds: obstacle.timeToCollisionSeconds,
                                                proximityWarningMeters: settings.proximityWarningMeters,
                                                previous: previous?.band) else { continue }
            if let previous, urgency.band >= previous.spokenBand {
                remembered[obstacle.key] = Remembered(band: urgency.band, spokenBand: max(previous.spokenBand, urgency.band),
                                                      lastSeenSeconds: time)
                continue
            }
            remembered[obstacle.key] = Remembered(band: urgency.band, spokenBand: urgency.band, lastSeenSeconds: time)
            if let label = obstacle.object?.label, settings.hazards[label] != nil { continue }
            announcements.append(Self.warning(for: obstacle, urgency: urgency, speech: speech))
        }

        if !obstacles.isEmpty {
            blocked = true
        } else if blocked, CorridorObstacles.isKnownClear(observation.corridor) {
            blocked = false
            announcements.append(Announcement(Utterance(speech.phrases.navigation.pathClear, priority: .newObject,
                                                        contentKey: "path-clear")))
        }
        return announcements
    }

    /// "Are there any obstacles?": every obstacle in the corridor now (closest first, at most
    /// three), or "Path clear." when the cue saw the corridor free, or that none was detected.
    static func answer(for observation: SceneObservation, settings: GuidanceSettings,
                       speech: SpokenObjects) -> [Announcement] {
        let key = "obstacles@\(observation.timeSeconds)"
        let obstacles = CorridorObstacles.find(in: observation, speech: speech)
        guard !obstacles.isEmpty else {
            let sentence = CorridorObstacles.isKnownClear(observation.corridor)
                ? speech.phrases.navigation.pathClear : speech.phrases.navigation.noObstacleSeen
            return [Announcement(Utterance(sentence, priority: .answer, contentKey: key))]
        }
        return obstacles.prefix(3).enumerated().map { index, obstacle in
            let urgency = ObstacleUrgency(distanceMeters: obstacle.distanceMeters,
                                          timeToCollisionSeconds: obstacle.timeToCollisionSeconds,
                                          proximityWarningMeters: settings.proximityWarningMeters, previous: nil)
            var announcement = warning(for: obstacle, urgency: urgency, speech: speech)
            announcement.utterance.priority = .answer
            announcement.utterance.contentKey = "\(key)#\(index)"
            if index > 0 { announcement.vibration = nil }
            return announcement
        }
    }

    /// The words, tone and vibration for one obstacle. `urgency` nil (beyond the look-ahead,
    /// only in an answer) is said as far.
    private static func warning(for obstacle: CorridorObstacle, urgency: ObstacleUrgency?,
                                speech: SpokenObjects) -> Announcement {
        let sentence = obstacle.object.flatMap(speech.sentence(for:))
            ?? SentenceFiles.fill(speech.phrases.navigation.obstacle,
                                ["distance": speech.obstacleDistancePhrase(meters: obstacle.distanceMeters)])
        let band = urgency?.band ?? .far
        let priority: UtterancePriority = band <= .critical ? .hazard : .newObject
        let utterance = Utterance(SentenceFiles.capitalized(sentence), priority: priority,
                                  directionDegrees: obstacle.directionDegrees, contentKey: obstacle.key,
                                  distanceBand: band.rawValue, earcon: .obstacleHazard,
                                  severity: urgency?.severity ?? 0.35)
        return Announcement(utterance, vibration: urgency?.vibration ?? .obstacle(distanceMeters: obstacle.distanceMeters))
    }
}
