import Foundation
import Guidance
import Perception

/// Something standing in the walking corridor: a tracked object whose place is inside the
/// corridor, or what the class-free cue (depth, free floor) found there.
struct CorridorObstacle: Sendable, Equatable {
    /// Stable across frames: "obstacle#12" for a track, "corridor" for the class-free cue.
    let key: String
    let distanceMeters: Double
    let timeToCollisionSeconds: Double?
    /// Degrees right of ahead.
    let directionDegrees: Double
    /// The tracked object (with its filtered distance); nil for the class-free cue.
    let object: LocatedObject?
}

/// Finds the obstacles in the walking corridor of one observation, closest first.
enum CorridorObstacles {
    /// Obstacles farther than this are not announced: at walking speed (1.4 m/s) 5 m is about
    /// 3.5 s, the horizon of the next few steps, and the geometric distances beyond are coarse.
    static let lookAheadMeters = 5.0
    /// The class-free cue's obstacle counts as an already detected object when their distances
    /// differ by less than this share (or 0.5 m): the same chair is not announced twice.
    static let sameObstacleRelativeDifference = 0.25

    /// `corridorWidthMeters`: an object is in the corridor when the sideways offset of its
    /// centre, distance × tan(angle), is within half of it.
    static func find(in observation: SceneObservation, speech: SpokenObjects,
                     corridorWidthMeters: Double = WalkingCorridor.defaultWidthMeters) -> [CorridorObstacle] {
        var obstacles: [CorridorObstacle] = []
        for track in observation.tracking.tracks where track.isVisible && track.isConfirmed {
            let object = speech.located(track)
            guard let meters = object.distance.meters, meters <= lookAheadMeters
                    || (track.timeToCollisionSeconds ?? .infinity) < ObstacleUrgency.criticalTimeToCollisionSeconds
            else { continue }
            let lateralMeters = meters * tan(object.direction.angleDegrees * .pi / 180)
            guard abs(lateralMeters) <= corridorWidthMeters / 2 else { continue }
            obstacles.append(CorridorObstacle(key: "obstacle\(track.id)", distanceMeters: meters,
                                              timeToCollisionSeconds: track.timeToCollisionSeconds,
                                              directionDegrees: object.direction.angleDegrees, object: object))
        }
        if let meters = observation.corridor?.nearestObstacleMeters, meters.isFinite, meters > 0, meters <= lookAheadMeters {
            let seenAsObject = obstacles.contains {
                abs($0.distanceMeters - meters) <= max(0.5, sameObstacleRelativeDifference * $0.distanceMeters)
            }
            if !seenAsObject {
                obstacles.append(CorridorObstacle(key: "corridor", distanceMeters: meters, timeToCollisionSeconds: nil,
                                                  directionDegrees: 0, object: nil))
            }
        }
        return obstacles.sorted { $0.distanceMeters < $1.distanceMeters }
    }

    /// Whether the corridor is known to be clear: the class-free cue looked at least this far and
    /// found nothing. Without a cue (or one that saw only a meter of floor) nothing is promised.
    static let clearMinimumExaminedMeters = 3.0

    static func isKnownClear(_ corridor: CorridorReading?) -> Bool {
        guard let corridor, let examined = corridor.examinedToMeters, examined >= clearMinimumExaminedMeters else {
            return false
        }
        guard let nearest = corridor.nearestObstacleMeters else { return true }
        return nearest > lookAheadMeters
    }
}
