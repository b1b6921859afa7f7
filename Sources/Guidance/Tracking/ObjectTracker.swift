import AssistCore
import Foundation
import Perception

/// A track's number, stable for as long as the tracker follows the same object.
public struct TrackID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: TrackID, b: TrackID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "#\(rawValue)" }
}

/// One object followed across frames.
public struct TrackedObject: Sendable, Equatable {
    public let id: TrackID
    /// The latest sighting (when missed in this frame, the last one).
    public let object: LocatedObject
    public let firstSeenSeconds: Double
    public let lastSeenSeconds: Double
    /// Frames in which the object was detected.
    public let framesSeen: Int
    /// Frames in a row it has been missed (0 when detected in this frame).
    public let missedFrames: Int
    /// Seen in enough frames (`TrackerSettings.confirmationFrames`) to be worth announcing.
    public let isConfirmed: Bool
    /// The filtered distance; nil while no distance was measured.
    public let distanceMeters: Double?
    /// Closing speed, positive when it comes closer (or the user walks towards it); nil before two
    /// distances were measured.
    public let approachSpeedMetersPerSecond: Double?
    /// distance / closing speed, when closing faster than `minimumApproachSpeedMetersPerSecond`.
    public let timeToCollisionSeconds: Double?
    /// Set when this object's kind was last seen in a track that ended: it left the view and came back.
    public let cameBack: Return?

    /// For mode policies' tests, which hand made-up tracks to a policy; the tracker makes its own.
    public init(id: TrackID, object: LocatedObject, firstSeenSeconds: Double, lastSeenSeconds: Double, framesSeen: Int,
                missedFrames: Int, isConfirmed: Bool, distanceMeters: Double?, approachSpeedMetersPerSecond: Double?,
                timeToCollisionSeconds: Double?, cameBack: Return?) {
        self.id = id
        self.object = object
        self.firstSeenSeconds = firstSeenSeconds
        self.lastSeenSeconds = lastSeenSeconds
        self.framesSeen = framesSeen
        self.missedFrames = missedFrames
        self.isConfirmed = isConfirmed
        self.distanceMeters = distanceMeters
        self.approachSpeedMetersPerSecond = approachSpeedMetersPerSecond
        self.timeToCollisionSeconds = timeToCollisionSeconds
        self.cameBack = cameBack
    }

    public var label: String { object.label }
    public var classIndex: Int { object.detection.classIndex }
    public var isVisible: Bool { missedFrames == 0 }

    /// An object of the same kind as an earlier, ended track.
    public struct Return: Sendable, Equatable {
        public let previousID: TrackID
        /// Seconds between the earlier track's last sighting and this one's first.
        public let secondsAway: Double

        public init(previousID: TrackID, secondsAway: Double) {
            self.previousID = previousID
            self.secondsAway = secondsAway
        }
    }
}

/// A track that ended: missed for more than `maximumMissedFrames` frames.
public struct EndedTrack: Sendable, Equatable {
    public let id: TrackID
    public let label: String
    public let classIndex: Int
    public let lastSeenSeconds: Double
    public let lastDirection: Direction

    public init(id: TrackID, label: String, classIndex: Int, lastSeenSeconds: Double, lastDirection: Direction) {
        self.id = id
        self.label = label
        self.classIndex = classIndex
        self.lastSeenSeconds = lastSeenSeconds
        self.lastDirection = lastDirection
    }
}

/// What changed with one frame.
public struct TrackingUpdate: Sendable, Equatable {
    /// Every live track (visible or briefly missed), in ID order.
    public let tracks: [TrackedObject]
    /// Tracks that started in this frame.
    public let started: [TrackID]
    /// Tracks that ended in this frame.
    public let ended: [EndedTrack]

    public init(tracks: [TrackedObject], started: [TrackID], ended: [EndedTrack]) {
        self.tracks = tracks
        self.started = started
        self.ended = ended
    }

    public var visibleTracks: [TrackedObject] { tracks.filter(\.isVisible) }
    public func track(_ id: TrackID) -> TrackedObject? { tracks.first { $0.id == id } }
}

/// Follows detections across frames, ByteTrack style (Zhang et al., "ByteTrack: Multi-Object
/// Tracking by Associating Every Detection Box", ECCV 2022), with IoU as the only cue:
/// 1. high-confidence detections are matched to all live tracks of the same class, greedily by
///    IoU (highest first), down to `firstPassMinimumIoU`;
/// 2. low-confidence detections are matched to the tracks seen in the previous frame that are
///    still unmatched, down to `secondPassMinimumIoU` (a half-hidden object keeps its track);
/// 3. tracks left unmatched count a miss and end after `maximumMissedFrames`;
/// 4. unmatched detections sure enough start new tracks.
/// Greedy matching by descending IoU gives the Hungarian answer whenever each detection overlaps
/// at most one track well, which is the rule for a walker's few objects, at O(n² log n).
///
/// No motion model moves boxes between frames: at guidance rates a user turning moves every box
/// at once, which a per-object constant velocity would mispredict. Distances are filtered per
/// track (`DistanceFilter`).
public struct ObjectTracker: Sendable {
    public let settings: TrackerSettings
    private var live: [Track] = []
    private var recentlyEnded: [EndedTrack] = []
    private var nextID = 1

    public init(settings: TrackerSettings = .standard) {
        self.settings = settings
    }

    private struct Track: Sendable {
        let id: TrackID
        var object: LocatedObject
        let firstSeenSeconds: Double
        var lastSeenSeconds: Double
        var framesSeen: Int
        var missedFrames: Int
        var distance: DistanceFilter?
        let cameBack: TrackedObject.Return?
    }

    /// Folds in the objects detected in the frame taken at `timeSeconds` (the frame's own clock,
    /// increasing).
    public mutating func update(with objects: [LocatedObject], atSeconds timeSeconds: Double) -> TrackingUpdate {
        let candidates = objects.enumerated().filter { $0.element.confidence >= settings.lowConfidence }
        let high = candidates.filter { $0.element.confidence >= settings.highConfidence }.map(\.offset)
        let low = candidates.filter { $0.element.confidence < settings.highConfidence }.map(\.offset)

        var matchedTracks = Set<Int>(), matchedObjects = Set<Int>()
        let firstPass = Self.greedyMatches(tracks: Array(live.indices), objects: high, live: live, detections: objects,
                                           minimumIoU: settings.firstPassMinimumIoU)
        let seenLastFrame = live.indices.filter { live[$0].missedFrames == 0 && !firstPass.keys.contains($0) }
        let secondPass = Self.greedyMatches(tracks: seenLastFrame, objects: low, live: live, detections: objects,
                                            minimumIoU: settings.secondPassMinimumIoU)
        for (trackIndex, objectIndex) in firstPass.merging(secondPass, uniquingKeysWith: { a, _ in a }) {
            matchedTracks.insert(trackIndex)
            matchedObjects.insert(objectIndex)
            observe(objects[objectIndex], in: &live[trackIndex], atSeconds: timeSeconds)
        }

        var ended: [EndedTrack] = []
        for index in live.indices where !matchedTracks.contains(index) {
            live[index].missedFrames += 1
        }
        live.removeAll { track in
            guard track.missedFrames > settings.maximumMissedFrames else { return false }
            ended.append(EndedTrack(id: track.id, label: track.object.label, classIndex: track.object.detection.classIndex,
                                    lastSeenSeconds: track.lastSeenSeconds, lastDirection: track.object.direction))
            return true
        }
        recentlyEnded.append(contentsOf: ended)
        recentlyEnded.removeAll { timeSeconds - $0.lastSeenSeconds > settings.rememberEndedTracksSeconds }

        var started: [TrackID] = []
        for index in high where !matchedObjects.contains(index) && objects[index].confidence >= settings.newTrackConfidence {
            let object = objects[index]
            // The most recently ended track of the same kind is the one that came back.
            var cameBack: TrackedObject.Return?
            if let previous = recentlyEnded.lastIndex(where: { $0.classIndex == object.detection.classIndex }) {
                let previousTrack = recentlyEnded.remove(at: previous)
                cameBack = .init(previousID: previousTrack.id, secondsAway: timeSeconds - previousTrack.lastSeenSeconds)
            }
            var track = Track(id: TrackID(rawValue: nextID), object: object, firstSeenSeconds: timeSeconds,
                              lastSeenSeconds: timeSeconds, framesSeen: 0, missedFrames: 0, distance: nil, cameBack: cameBack)
            nextID += 1
            observe(object, in: &track, atSeconds: timeSeconds)
            live.append(track)
            started.append(track.id)
        }
        return TrackingUpdate(tracks: live.map(trackedObject).sorted { $0.id < $1.id }, started: started, ended: ended)
    }

    private func observe(_ object: LocatedObject, in track: inout Track, atSeconds time: Double) {
        track.object = object
        track.lastSeenSeconds = time
        track.framesSeen += 1
        track.missedFrames = 0
        guard let meters = object.distance.meters else { return }
        let relativeError = object.distance.relativeError ?? settings.defaultDistanceRelativeError
        if track.distance == nil {
            track.distance = DistanceFilter(meters: meters, relativeError: relativeError, atSeconds: time,
                                            accelerationNoiseMetersPerSecondSquared: settings.distanceAccelerationNoiseMetersPerSecondSquared)
        } else {
            track.distance?.update(meters: meters, relativeError: relativeError, atSeconds: time)
        }
    }

    private func trackedObject(_ track: Track) -> TrackedObject {
        let distance = track.distance?.distanceMeters
        let approach = track.distance?.approachSpeedMetersPerSecond
        var timeToCollision: Double?
        if let distance, let approach, approach >= settings.minimumApproachSpeedMetersPerSecond {
            timeToCollision = distance / approach
        }
        return TrackedObject(id: track.id, object: track.object, firstSeenSeconds: track.firstSeenSeconds,
                             lastSeenSeconds: track.lastSeenSeconds, framesSeen: track.framesSeen,
                             missedFrames: track.missedFrames, isConfirmed: track.framesSeen >= settings.confirmationFrames,
                             distanceMeters: distance, approachSpeedMetersPerSecond: approach,
                             timeToCollisionSeconds: timeToCollision, cameBack: track.cameBack)
    }

    /// Track index → object index, pairing the same class by descending IoU, each at most once.
    private static func greedyMatches(tracks: [Int], objects: [Int], live: [Track], detections: [LocatedObject],
                                      minimumIoU: Float) -> [Int: Int] {
        var pairs: [(iou: Float, track: Int, object: Int)] = []
        for track in tracks {
            for object in objects where detections[object].detection.classIndex == live[track].object.detection.classIndex {
                let iou = live[track].object.detection.box.intersectionOverUnion(with: detections[object].detection.box)
                if iou >= minimumIoU { pairs.append((iou, track, object)) }
            }
        }
        // Ties broken by index so the result does not depend on the sort's stability.
        pairs.sort { ($0.iou, -$0.track, -$0.object) > ($1.iou, -$1.track, -$1.object) }
        var matches: [Int: Int] = [:], usedObjects = Set<Int>()
        for pair in pairs where matches[pair.track] == nil && !usedObjects.contains(pair.object) {
            matches[pair.track] = pair.object
            usedObjects.insert(pair.object)
        }
        return matches
    }
}
