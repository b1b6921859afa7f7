import Foundation
import Perception
import Testing
@testable import Guidance

/// A detection of `label` (class `classIndex`) in a box, with a distance.
private func sighting(_ label: String, classIndex: Int, box: BoundingBox, meters: Double? = nil,
                      relativeError: Double = 0.1, confidence: Float = 0.9) -> LocatedObject {
    LocatedObject(detection: Detection(classIndex: classIndex, label: label, confidence: confidence, box: box),
                  direction: Direction(angleDegrees: 0, elevationDegrees: 0),
                  distance: meters.map { DistanceEstimate(meters: $0, method: .measuredDepth, relativeError: relativeError) } ?? .unknown)
}

private func box(x: Float, y: Float = 100, size: Float = 100) -> BoundingBox {
    BoundingBox(x0: x, y0: y, x1: x + size, y1: y + size)
}

/// Deterministic noise in −1…1 (the fractional part of a scaled sine, a common shader hash: no
/// random generator, the same numbers on every run).
private func noise(_ k: Int) -> Double { (sin(Double(k) * 12.9898) * 43758.5453).truncatingRemainder(dividingBy: 1) }

@Suite("Object tracking")
struct TrackingTests {
    @Test("the same chair seen in ten frames keeps one track ID and starts only once")
    func stableID() {
        var tracker = ObjectTracker()
        var ids = Set<TrackID>()
        var starts = 0
        for frame in 0..<10 {
            let update = tracker.update(with: [sighting("chair", classIndex: 56, box: box(x: 100 + Float(frame) * 5))],
                                        atSeconds: Double(frame) * 0.2)
            starts += update.started.count
            ids.formUnion(update.visibleTracks.map(\.id))
        }
        #expect(ids.count == 1)
        #expect(starts == 1)
    }

    @Test("two people side by side keep their own IDs when they swap order in the detector's list")
    func twoObjectsKeepIDs() throws {
        var tracker = ObjectTracker()
        let first = tracker.update(with: [sighting("person", classIndex: 0, box: box(x: 0)),
                                          sighting("person", classIndex: 0, box: box(x: 300))], atSeconds: 0)
        let left = try #require(first.tracks.first { $0.object.detection.box.x0 == 0 }).id
        let second = tracker.update(with: [sighting("person", classIndex: 0, box: box(x: 310)),
                                           sighting("person", classIndex: 0, box: box(x: 10))], atSeconds: 0.2)
        #expect(second.started.isEmpty)
        #expect(second.track(left)?.object.detection.box.x0 == 10)
    }

    @Test("a detection of another class in the same place starts its own track")
    func classMustMatch() {
        var tracker = ObjectTracker()
        _ = tracker.update(with: [sighting("chair", classIndex: 56, box: box(x: 100))], atSeconds: 0)
        let update = tracker.update(with: [sighting("dog", classIndex: 16, box: box(x: 100))], atSeconds: 0.2)
        #expect(update.started.count == 1)
        #expect(update.tracks.count == 2)
        #expect(update.track(update.started[0])?.label == "dog")
    }

    @Test("a low-confidence detection keeps a track alive but never starts one")
    func lowConfidenceSecondPass() {
        var tracker = ObjectTracker()
        let first = tracker.update(with: [sighting("chair", classIndex: 56, box: box(x: 100))], atSeconds: 0)
        let id = first.started[0]
        let update = tracker.update(with: [sighting("chair", classIndex: 56, box: box(x: 102), confidence: 0.3),
                                           sighting("chair", classIndex: 56, box: box(x: 500), confidence: 0.3)], atSeconds: 0.2)
        #expect(update.track(id)?.missedFrames == 0)
        #expect(update.track(id)?.framesSeen == 2)
        #expect(update.started.isEmpty, "a weak detection elsewhere is not a new object")
        #expect(update.tracks.count == 1)
    }

    @Test("a low-confidence detection that overlaps only loosely does not take over a track")
    func lowConfidenceNeedsCloseOverlap() {
        var tracker = ObjectTracker()
        let id = tracker.update(with: [sighting("chair", classIndex: 56, box: box(x: 100))], atSeconds: 0).started[0]
        // IoU of boxes shifted by 40 of 100: 60/140 ≈ 0.43, enough for a sure detection, not for a weak one.
        let weak = tracker.update(with: [sighting("chair", classIndex: 56, box: box(x: 140), confidence: 0.3)], atSeconds: 0.2)
        #expect(weak.track(id)?.missedFrames == 1)
        let sure = tracker.update(with: [sighting("chair", classIndex: 56, box: box(x: 140))], atSeconds: 0.4)
        #expect(sure.track(id)?.missedFrames == 0)
    }

    @Test("a track missed for a few frames survives; missed longer it ends")
    func missedFrames() {
        var tracker = ObjectTracker()
        let id = tracker.update(with: [sighting("chair", classIndex: 56, box: box(x: 100))], atSeconds: 0).started[0]
        for frame in 1...5 {
            let update = tracker.update(with: [], atSeconds: Double(frame) * 0.2)
            #expect(update.track(id)?.missedFrames == frame)
            #expect(update.visibleTracks.isEmpty)
        }
        let back = tracker.update(with: [sighting("chair", classIndex: 56, box: box(x: 104))], atSeconds: 1.2)
        #expect(back.track(id)?.missedFrames == 0, "seen again within 5 frames: the same track")
        #expect(back.started.isEmpty)
        var endedAt: Int?
        for frame in 7...13 {
            let update = tracker.update(with: [], atSeconds: Double(frame) * 0.2)
            if !update.ended.isEmpty {
                endedAt = frame
                #expect(update.ended == [EndedTrack(id: id, label: "chair", classIndex: 56, lastSeenSeconds: 1.2,
                                                    lastDirection: Direction(angleDegrees: 0, elevationDegrees: 0))])
            }
        }
        #expect(endedAt == 12, "ends on the sixth missed frame")
    }

    @Test("an object that left the view and came back is known to have come back")
    func cameBack() throws {
        var tracker = ObjectTracker()
        let firstID = tracker.update(with: [sighting("dog", classIndex: 16, box: box(x: 100))], atSeconds: 0).started[0]
        for frame in 1...6 { _ = tracker.update(with: [], atSeconds: Double(frame)) }
        let update = tracker.update(with: [sighting("dog", classIndex: 16, box: box(x: 400)),
                                           sighting("cat", classIndex: 15, box: box(x: 0))], atSeconds: 10)
        let dog = try #require(update.tracks.first { $0.label == "dog" })
        #expect(dog.id != firstID)
        #expect(dog.cameBack == TrackedObject.Return(previousID: firstID, secondsAway: 10))
        #expect(update.tracks.first { $0.label == "cat" }?.cameBack == nil, "a cat was never seen before")
        #expect(!dog.isConfirmed, "a track is confirmed from its second sighting")
    }

    @Test("a chair approached at 1 m/s from 6 m: distance smoothed, approach speed about 1 m/s, time to collision distance / speed")
    func approachSpeedAndTimeToCollision() throws {
        var tracker = ObjectTracker()
        var last: TrackedObject?
        let framesPerSecond = 5.0
        for k in 0..<20 {
            let t = Double(k) / framesPerSecond
            let truth = 6 - t
            let measured = truth * (1 + 0.1 * noise(k))
            let update = tracker.update(with: [sighting("chair", classIndex: 56, box: box(x: 100 - Float(k), size: 100 + Float(2 * k)),
                                                        meters: measured, relativeError: 0.1)], atSeconds: t)
            last = update.visibleTracks.first
        }
        let track = try #require(last)
        let speed = try #require(track.approachSpeedMetersPerSecond)
        #expect(abs(speed - 1) < 0.25, "approach speed \(speed)")
        let distance = try #require(track.distanceMeters)
        #expect(abs(distance - 2.2) < 0.3, "distance \(distance)")
        let ttc = try #require(track.timeToCollisionSeconds)
        #expect(abs(ttc - distance / speed) < 1e-9)
    }

    @Test("a chair that stands still has no time to collision, and one moving away neither")
    func noCollisionWhenNotApproaching() throws {
        for rate in [0.0, 0.8] {
            var tracker = ObjectTracker()
            var last: TrackedObject?
            var smoothedError = 0.0, rawError = 0.0
            for k in 0..<30 {
                let t = Double(k) * 0.2
                let truth = 3 + rate * t
                let meters = truth * (1 + 0.1 * noise(k + 7))
                last = tracker.update(with: [sighting("chair", classIndex: 56, box: box(x: 100), meters: meters)], atSeconds: t)
                    .visibleTracks.first
                if k >= 5 {
                    smoothedError += abs(try #require(last?.distanceMeters) - truth)
                    rawError += abs(meters - truth)
                }
            }
            // A constant-velocity filter also estimates a (wandering) speed, so it smooths less than an
            // average would: at 5 fps with ±10 % noise it removes about a fifth of the error.
            if rate == 0 { #expect(smoothedError < 0.85 * rawError, "smoothing: \(smoothedError) against \(rawError)") }
            let track = try #require(last)
            #expect(track.timeToCollisionSeconds == nil, "moving away at \(rate) m/s")
            #expect(try #require(track.approachSpeedMetersPerSecond) < 0.25)
        }
    }

    @Test("a track's first distance has no approach speed yet, and an unknown distance keeps it unknown")
    func distanceNeedsTwoMeasurements() {
        var tracker = ObjectTracker()
        let first = tracker.update(with: [sighting("chair", classIndex: 56, box: box(x: 100), meters: 3)], atSeconds: 0)
        #expect(first.tracks[0].distanceMeters == 3)
        #expect(first.tracks[0].approachSpeedMetersPerSecond == nil)
        var other = ObjectTracker()
        let unknown = other.update(with: [sighting("chair", classIndex: 56, box: box(x: 100))], atSeconds: 0)
        #expect(unknown.tracks[0].distanceMeters == nil)
        #expect(unknown.tracks[0].timeToCollisionSeconds == nil)
    }
}
