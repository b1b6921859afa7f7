import AssistCore
import Foundation
import Perception
import Testing
@testable import Guidance
@testable import LiveGuidance

/// A 64×48 picture: mid grey, with a dark block `blockPixels` wide in the middle when it is above 0
/// (something in front of the camera that grows as it comes closer).
private func scenePicture(blockPixels: Int = 0) -> RGBImage {
    var image = RGBImage(width: 64, height: 48, filledWith: (128, 128, 128))
    let side = min(blockPixels, 40)
    guard side > 0 else { return image }
    for y in (24 - side / 2)..<(24 + (side + 1) / 2) {
        for x in (32 - side / 2)..<(32 + (side + 1) / 2) {
            let i = (y * 64 + x) * 3
            image.pixels[i] = 30; image.pixels[i + 1] = 30; image.pixels[i + 2] = 40
        }
    }
    return image
}

/// A 640×480 picture, mid grey, with a dark block over each box (in the picture's pixels, as the
/// detector's boxes are): what the change measure sees of the objects `sighting` places.
private func boxesPicture(_ boxes: [BoundingBox]) -> RGBImage {
    var image = RGBImage(width: 640, height: 480, filledWith: (128, 128, 128))
    for box in boxes.map({ $0.clipped(width: 640, height: 480) }) {
        for y in Int(box.y0)..<Int(box.y1) {
            for x in Int(box.x0)..<Int(box.x1) {
                let i = (y * 640 + x) * 3
                image.pixels[i] = 30; image.pixels[i + 1] = 30; image.pixels[i + 2] = 40
            }
        }
    }
    return image
}

/// Frames at 15 fps on the test's own clock (frame n at n/15 s) through an `AnalysisSchedule`,
/// with a real tracker folding in what each analysed frame shows.
private struct ScheduleDriver {
    var schedule: AnalysisSchedule
    var tracker = ObjectTracker()
    var situation = AnalysisSchedule.Situation(mode: .continuous, batterySaving: false, lastRequestSeconds: nil,
                                               hazardLabels: Set(GuidanceSettings.standardHazards.keys))
    let framesPerSecond = 15.0
    private(set) var frameIndex = 0
    private(set) var analysed: [(seconds: Double, reason: AnalysisSchedule.Reason)] = []
    /// The tracks of each analysed frame, as the policies would get them.
    private(set) var trackings: [(seconds: Double, tracks: [TrackedObject])] = []

    init(_ policy: AnalysisSchedule.Policy = .adaptive) {
        schedule = AnalysisSchedule(policy: policy)
    }

    var nowSeconds: Double { Double(frameIndex) / framesPerSecond }

    /// Runs frames until `seconds` on the test clock; `picture` and `objects` say what each frame
    /// at a given time shows (the objects are what the detector would find, if it were run).
    mutating func run(until seconds: Double, picture: (Double) -> RGBImage = { _ in scenePicture() },
                      objects: (Double) -> [LocatedObject] = { _ in [] }) {
        while nowSeconds < seconds - 1e-9 {
            let now = nowSeconds
            let thumbnail = FrameThumbnail(picture(now))
            if let reason = schedule.reason(toAnalyse: thumbnail, atSeconds: now, in: situation) {
                let tracking = tracker.update(with: objects(now), atSeconds: now)
                schedule.analysed(thumbnail, atSeconds: now, tracks: tracking.tracks, in: situation)
                analysed.append((now, reason))
                trackings.append((now, tracking.tracks))
            }
            frameIndex += 1
        }
    }

    /// Analyses per second between two moments of the test clock.
    func rate(from start: Double, to end: Double) -> Double {
        Double(analysed.filter { $0.seconds >= start - 1e-9 && $0.seconds < end - 1e-9 }.count) / (end - start)
    }

    /// The moments at which the `label` track came into a closer `DistanceBands.approach` band
    /// (with the bands' hysteresis, as continuous guidance follows it): when it would be said again.
    func closerBandMoments(of label: String) -> [Double] {
        var band: Int?, moments: [Double] = []
        for (seconds, tracks) in trackings {
            guard let track = tracks.first(where: { $0.label == label && $0.isConfirmed }) else { continue }
            let now = DistanceBands.approach.band(forMeters: track.distanceMeters, previous: band)
            if let before = band, now < before { moments.append(seconds) }
            band = now
        }
        return moments
    }

    func reasons(from start: Double, to end: Double) -> Set<AnalysisSchedule.Reason> {
        Set(analysed.filter { $0.seconds >= start - 1e-9 && $0.seconds < end - 1e-9 }.map(\.reason))
    }
}

/// A person 6 m away, walking towards the camera at 1.2 m/s from 4 s to 7 s, then standing at 2.4 m.
private func approachingPerson(_ t: Double) -> Double { t < 4 ? 6 : max(2.4, 6 - 1.2 * (t - 4)) }

@Suite("Analysis schedule: analyse when it matters (issue 20)")
struct AnalysisScheduleTests {
    @Test("a still scene is analysed three times a second, not at the camera's 15")
    func stillScene() {
        var driver = ScheduleDriver()
        driver.run(until: 10)
        #expect(driver.analysed.first?.reason == .firstFrame)
        #expect(driver.rate(from: 1, to: 10) == 3)
        #expect(driver.reasons(from: 0.01, to: 10) == [.due])
    }

    @Test("analysing every frame when the schedule is off")
    func everyFrameWhenOff() {
        var driver = ScheduleDriver(.everyFrame)
        driver.run(until: 4)
        #expect(driver.analysed.count == 60)
        #expect(driver.reasons(from: 0, to: 4) == [.everyFrame])
    }

    @Test("the battery saver lowers the still rate to one a second; navigation raises it to five")
    func baseRates() {
        var saving = ScheduleDriver()
        saving.situation.batterySaving = true
        saving.run(until: 10)
        #expect(saving.rate(from: 1, to: 10) == 1)

        var walking = ScheduleDriver()
        walking.situation.mode = .navigate
        walking.run(until: 10)
        #expect(walking.rate(from: 1, to: 10) == 5)
    }

    @Test("navigating, the rate rises to every frame while a person approaches, and falls once the scene is still again")
    func approach() throws {
        var driver = ScheduleDriver()
        driver.situation.mode = .navigate
        // A person standing 6 m away, walking towards the camera at 1.2 m/s from 4 s to 7 s, then
        // standing still at 2.4 m. The picture is kept the same, so only the tracker can tell.
        driver.run(until: 16, objects: { [sighting("person", meters: approachingPerson($0))] })
        #expect(driver.rate(from: 2, to: 4) == 5, "standing still before the approach (walking rate)")
        // The distance filter is sure of the approach within a second; from then on every frame.
        let firstApproach = try #require(driver.analysed.first { $0.reason == .approaching }?.seconds)
        #expect(firstApproach > 4 && firstApproach < 5)
        #expect(driver.rate(from: 5, to: 7) == 15, "approaching: every frame")
        #expect(driver.rate(from: 12, to: 16) == 5, "still again")
    }

    @Test("in continuous guidance a person coming closer is watched every frame as they near a closer band, and said there no later than with every frame analysed",
          arguments: [1.2, 3.0])
    func approachByBands(speed: Double) throws {
        func meters(_ t: Double) -> Double { t < 4 ? 12 : max(2.4, 12 - speed * (t - 4)) }
        var adaptive = ScheduleDriver(), everyFrame = ScheduleDriver(.everyFrame)
        adaptive.run(until: 16, objects: { [sighting("person", meters: meters($0))] })
        everyFrame.run(until: 16, objects: { [sighting("person", meters: meters($0))] })
        // 12 m → 2.4 m crosses the 8- and 4-metre bands (and, where the filter overshoots the
        // stop, the 2-metre one): said again at each, never on a later frame.
        let expected = everyFrame.closerBandMoments(of: "person"), got = adaptive.closerBandMoments(of: "person")
        #expect(expected.count >= 2)
        #expect(got.count == expected.count, "\(got) against \(expected)")
        for (adaptiveMoment, everyFrameMoment) in zip(got, expected) {
            #expect(adaptiveMoment <= everyFrameMoment + 1e-9, "\(got) against \(expected)")
            // Every frame in the last 0.2 s before it.
            #expect(adaptive.rate(from: adaptiveMoment - 0.2, to: adaptiveMoment + 1e-6) >= 15 * 0.2 - 1e-9, "before \(adaptiveMoment) s")
        }
        // Far from any edge, the still scene's rate: standing at 12 m, and walking between 8 and 4 m.
        #expect(adaptive.rate(from: 1, to: 4) == 3)
        if speed < 2 { #expect(adaptive.rate(from: expected[0] + 0.5, to: expected[1] - 1.2) < 15) }
        #expect(adaptive.analysed.count < everyFrame.analysed.count * 2 / 3, "\(adaptive.analysed.count) of \(everyFrame.analysed.count)")
    }

    @Test("a vehicle coming closer is watched every frame whatever the band, in continuous guidance too")
    func vehicleApproach() {
        var driver = ScheduleDriver()
        func car(_ t: Double) -> [LocatedObject] { [sighting("car", meters: 30 - 3 * t)] }
        driver.run(until: 8, picture: { boxesPicture(car($0).map(\.detection.box)) }, objects: car)
        #expect(driver.rate(from: 0, to: 8) == 15)
    }

    /// What a hazard's track would be warned of, and when: the first analysed frame at which the
    /// distance filter saw it closing in (a "Coming closer." alert), came within
    /// `HazardPolicy.nearMeters`, and came into each closer band.
    private static func warningMoments(_ driver: ScheduleDriver, of label: String) -> [String: Double] {
        var moments: [String: Double] = [:]
        for (seconds, tracks) in driver.trackings {
            guard let track = tracks.first(where: { $0.label == label && $0.isConfirmed }) else { continue }
            if track.timeToCollisionSeconds != nil, moments["closing in"] == nil { moments["closing in"] = seconds }
            if let meters = track.distanceMeters, meters <= HazardPolicy.nearMeters, moments["near"] == nil { moments["near"] = seconds }
        }
        for (index, seconds) in driver.closerBandMoments(of: label).enumerated() { moments["closer band \(index + 1)"] = seconds }
        return moments
    }

    @Test("a parked car is looked at three times a second once it has stood still for a second; when it pulls out towards the camera, every warning comes on the frame it would with every frame analysed",
          arguments: [(30.0, 1.0), (30.0, 3.0), (12.0, 1.0), (12.0, 6.0), (9.0, 0.5), (9.0, 3.0)])
    func parkedCarPullsOut(startMeters: Double, speed: Double) throws {
        // Standing until 4 s, then coming closer at `speed`, down to 2 m.
        func car(_ t: Double) -> [LocatedObject] {
            [sighting("car", meters: t < 4 ? startMeters : max(2, startMeters - speed * (t - 4)), degrees: -10)]
        }
        func picture(_ t: Double) -> RGBImage { boxesPicture(car(t).map(\.detection.box)) }
        var adaptive = ScheduleDriver(), everyFrame = ScheduleDriver(.everyFrame)
        adaptive.run(until: 12, picture: picture, objects: car)
        everyFrame.run(until: 12, picture: picture, objects: car)

        #expect(adaptive.rate(from: 0, to: 1) == 15, "not yet known to be standing")
        #expect(adaptive.rate(from: 3, to: 4) == 3, "standing")
        let expected = Self.warningMoments(everyFrame, of: "car"), got = Self.warningMoments(adaptive, of: "car")
        #expect(expected["closing in"] != nil)
        #expect(Set(got.keys) == Set(expected.keys), "\(got) against \(expected)")
        for (warning, moment) in expected {
            #expect((got[warning] ?? .infinity) <= moment + 1e-9, "\(warning): \(got) against \(expected)")
        }
        // Once it has been seen closing in: every frame.
        let closing = try #require(got["closing in"])
        #expect(adaptive.rate(from: closing, to: 8) >= 15 - 1e-9)
    }

    @Test("a car driving across the view at a constant distance is never taken for a standing one")
    func carCrossing() {
        func car(_ t: Double) -> [LocatedObject] { [sighting("car", meters: 12, degrees: -30 + 8 * t)] }
        var driver = ScheduleDriver()
        driver.run(until: 7, picture: { boxesPicture(car($0).map(\.detection.box)) }, objects: car)
        #expect(driver.rate(from: 0, to: 7) == 15)
    }

    @Test("a new object is analysed every frame until it is confirmed")
    func newObject() {
        var driver = ScheduleDriver()
        driver.run(until: 3)
        // A cup appears at 3 s; the picture stays the same, so the schedule learns of it at its next
        // due analysis, then watches every frame until the tracker confirmed it.
        driver.run(until: 5, objects: { _ in [sighting("cup", meters: 1.5)] })
        let firstSeen = driver.analysed.first { $0.seconds >= 3 }!.seconds
        let next = driver.analysed.first { $0.seconds > firstSeen }!
        #expect(next.reason == .newObject)
        #expect(abs(next.seconds - firstSeen - 1 / 15) < 1e-9)
    }

    @Test("a request makes every frame analysed for three seconds, then the rate falls back")
    func request() {
        var driver = ScheduleDriver()
        driver.run(until: 4)
        driver.situation.lastRequestSeconds = 4
        driver.run(until: 10)
        #expect(driver.rate(from: 1, to: 4) == 3)
        #expect(driver.rate(from: 4, to: 7) == 15)
        #expect(driver.reasons(from: 4, to: 7) == [.request])
        #expect(driver.rate(from: 7, to: 10) == 3)
    }

    @Test("a change in the picture is analysed at once; the same picture afterwards is not")
    func pictureChange() {
        var driver = ScheduleDriver()
        // Something 16 pixels wide (a quarter of the width) steps in at 2.1 s, between two due analyses.
        driver.run(until: 5, picture: { scenePicture(blockPixels: $0 >= 2.1 ? 16 : 0) })
        let changed = driver.analysed.filter { $0.reason == .sceneChanged }
        #expect(changed.count == 1)
        #expect(abs((changed.first?.seconds ?? 0) - 32.0 / 15) < 1e-9, "the first frame showing it (2.13 s)")
        #expect(driver.rate(from: 3, to: 5) == 3)
    }

    @Test("people moving about where the tracker follows them leave the still rate alone; something stepping in elsewhere is analysed at once")
    func followedObjectsMoving() throws {
        // Two people 4 m away, left and right, swaying ±2° (about ±18 pixels) once a second: their
        // part of the picture changes in every frame, as on a street.
        func degrees(_ t: Double) -> [Double] { [-15 + 2 * sin(2 * .pi * t), 12 - 2 * sin(2 * .pi * t)] }
        func people(_ t: Double) -> [LocatedObject] { degrees(t).map { sighting("person", meters: 4, degrees: $0) } }
        // From 5 s something steps in at the right edge, away from both (96 pixels wide).
        let newcomer = BoundingBox(x0: 544, y0: 160, x1: 640, y1: 400)
        func picture(_ t: Double) -> RGBImage {
            boxesPicture(people(t).map(\.detection.box) + (t >= 5 ? [newcomer] : []))
        }
        var driver = ScheduleDriver()
        driver.run(until: 8, picture: picture, objects: people)
        #expect(driver.rate(from: 1, to: 5) == 3, "the people's own moves are the tracker's to judge")
        #expect(driver.reasons(from: 1, to: 5) == [.due])
        let stepIn = try #require(driver.analysed.first { $0.seconds >= 5 - 1e-9 })
        #expect(stepIn.reason == .sceneChanged)
        #expect(abs(stepIn.seconds - 5) < 1e-9, "its first frame")

        // The same moves where nothing is followed (the detector found no one) are changes.
        var unfollowed = ScheduleDriver()
        unfollowed.run(until: 5, picture: picture)
        #expect(unfollowed.rate(from: 1, to: 5) > 6)
    }

    @Test("a change of the whole picture is analysed at once even where followed objects cover it")
    func wholePictureChanged() throws {
        // Two people a metre away, left and right: with their margins they cover the whole picture.
        let people = [sighting("person", meters: 1, degrees: -10), sighting("person", meters: 1, degrees: 10)]
        func picture(_ t: Double) -> RGBImage {
            // At 3.1 s the camera turns to a bright wall; the people stay where they were.
            var image = boxesPicture(people.map(\.detection.box))
            if t >= 3.1 {
                for i in stride(from: 0, to: image.pixels.count, by: 3) where image.pixels[i] == 128 {
                    image.pixels[i] = 220; image.pixels[i + 1] = 220; image.pixels[i + 2] = 220
                }
            }
            return image
        }
        var driver = ScheduleDriver()
        driver.run(until: 5, picture: picture, objects: { _ in people })
        let changed = try #require(driver.analysed.first { $0.reason == .sceneChanged })
        #expect(abs(changed.seconds - 47.0 / 15) < 1e-9, "the first frame after the turn (3.13 s)")
        #expect(driver.rate(from: 1, to: 3) == 3)
    }

    @Test("a vehicle in view is watched every frame until it has stood still for a second, then as a still scene at once; a still chair is not")
    func hazardInView() {
        func car(_ t: Double) -> [LocatedObject] { [sighting("car", meters: 40)] }
        var driver = ScheduleDriver()
        driver.run(until: 6, picture: { boxesPicture(car($0).map(\.detection.box)) }, objects: car)
        // Confirmed at its second frame (1/15 s), standing a second later: no further hold.
        #expect(driver.rate(from: 0, to: 16.0 / 15) == 15)
        #expect(driver.reasons(from: 0.5, to: 16.0 / 15) == [.hazardInView])
        #expect(driver.rate(from: 16.0 / 15, to: 4.0 / 3) == 0, "\(driver.analysed.map(\.seconds))")
        #expect(driver.rate(from: 4.0 / 3, to: 6) == 3)
        #expect(driver.reasons(from: 1.01, to: 6) == [.due])
        var chair = ScheduleDriver()
        chair.run(until: 6, objects: { _ in [sighting("chair", meters: 2)] })
        #expect(chair.rate(from: 1, to: 6) == 3)
    }

    @Test("a change in the picture under a standing vehicle is analysed at once; a change elsewhere of the same size is not")
    func standingHazardChanged() throws {
        let car = sighting("car", meters: 10, degrees: -15)
        // From 4 s a small patch (24×24 pixels) flickers at the car's rear edge; from 6 s the same
        // patch at the far right instead.
        func picture(_ t: Double) -> RGBImage {
            var boxes = [car.detection.box]
            let patchX: Float = t >= 6 ? 600 : car.detection.box.x1 - 4
            if t >= 4, Int(t * 15) % 2 == 0 { boxes.append(BoundingBox(x0: patchX, y0: 240, x1: patchX + 24, y1: 264)) }
            return boxesPicture(boxes)
        }
        var driver = ScheduleDriver()
        driver.run(until: 8, picture: picture, objects: { _ in [car] })
        #expect(driver.rate(from: 3, to: 4) == 3)
        let moved = try #require(driver.analysed.first { $0.seconds >= 4 - 1e-9 })
        #expect(moved.reason == .hazardMoved)
        #expect(abs(moved.seconds - 4) < 1e-9, "its first frame")
        #expect(driver.rate(from: 7, to: 8) == 3, "a change this small elsewhere is not a scene change")
    }

    @Test("a parked car hidden for a second by people walking past in front is seen again on the frame it would be with every frame analysed",
          arguments: [0.0, 0.1, 0.2])
    func hiddenHazardComesBack(startSeconds: Double) throws {
        // A car 8 m away, standing; from 2 s (plus `startSeconds`) three people 3 m away walk
        // past in front of it at 1.2 m/s (about 206 pixels a second), side by side with small
        // gaps, hiding it for about a second. The detector finds the car while less than half of
        // it is covered.
        let car = sighting("car", meters: 8, degrees: -10)
        func people(_ t: Double) -> [LocatedObject] {
            guard t >= 2 + startSeconds else { return [] }
            let lead = -40 + 23 * (t - 2 - startSeconds)  // degrees of the leading walker
            return [0.0, 8, 16].map { sighting("person", meters: 3, degrees: lead - $0) }.filter { abs($0.direction.angleDegrees) < 40 }
        }
        func covered(_ t: Double) -> Float {
            let box = car.detection.box
            let hidden = people(t).map(\.detection.box).reduce(Float(0)) { sum, person in
                sum + max(0, min(box.x1, person.x1) - max(box.x0, person.x0))
            }
            return min(1, hidden / box.width)
        }
        func objects(_ t: Double) -> [LocatedObject] { people(t) + (covered(t) < 0.5 ? [car] : []) }
        func picture(_ t: Double) -> RGBImage {
            var image = boxesPicture([car.detection.box])
            for box in people(t).map({ $0.detection.box.clipped(width: 640, height: 480) }) {
                for y in Int(box.y0)..<Int(box.y1) {
                    for x in Int(box.x0)..<Int(box.x1) {
                        let i = (y * 640 + x) * 3
                        image.pixels[i] = 220; image.pixels[i + 1] = 200; image.pixels[i + 2] = 180
                    }
                }
            }
            return image
        }
        /// The first analysed frame after the car was hidden at which the detector found it again.
        func seenAgain(_ driver: ScheduleDriver) -> Double? {
            var hidden = false
            for (seconds, tracks) in driver.trackings where seconds > 2 {
                let visible = tracks.contains { $0.label == "car" && $0.isVisible }
                if !visible { hidden = true } else if hidden { return seconds }
            }
            return nil
        }
        var adaptive = ScheduleDriver(), everyFrame = ScheduleDriver(.everyFrame)
        adaptive.run(until: 7, picture: picture, objects: objects)
        everyFrame.run(until: 7, picture: picture, objects: objects)
        let expected = try #require(seenAgain(everyFrame))
        let got = try #require(seenAgain(adaptive))
        #expect(got <= expected + 1e-9, "seen again at \(got) s against \(expected) s")
        #expect(adaptive.reasons(from: 2, to: expected + 1e-6).contains(.hiddenHazard))
        #expect(adaptive.reasons(from: 1.2, to: 2 + startSeconds) == [.due], "standing before anyone walks past")
    }

    @Test("a car lost from view is watched where it was even when the car parked against it stays in view")
    func hiddenHazardBesideAnother() throws {
        // Two cars 4 m away parked bumper to bumper: their boxes overlap by 3 pixels. From 2.9 s
        // the detector misses the left one (the picture stays the same); from 3.4 s the picture
        // changes at that car's far end, away from the other's cells, where the other car's
        // followed margin makes the change measure pass over it.
        let left = sighting("car", meters: 4, degrees: -10), right = sighting("car", meters: 4, degrees: -4.8)
        #expect(left.detection.box.intersectionOverUnion(with: right.detection.box) > 0)
        func picture(_ t: Double) -> RGBImage {
            var image = boxesPicture([left.detection.box, right.detection.box])
            if t >= 3.4 {
                for y in 230..<250 {
                    for x in 205..<219 {
                        let i = (y * 640 + x) * 3
                        image.pixels[i] = 220; image.pixels[i + 1] = 200; image.pixels[i + 2] = 180
                    }
                }
            }
            return image
        }
        var driver = ScheduleDriver()
        driver.run(until: 5, picture: picture, objects: { $0 < 2.9 ? [left, right] : [right] })
        let changed = try #require(driver.analysed.first { $0.seconds >= 3.4 - 1e-9 })
        #expect(changed.reason == .hiddenHazard)
        #expect(abs(changed.seconds - 51.0 / 15) < 1e-9, "its first frame (3.4 s)")
    }

    @Test("the change measure counts cells that moved beyond noise, not small flicker")
    func changeMeasure() {
        let grey = FrameThumbnail(scenePicture())
        var flicker = scenePicture()
        for i in flicker.pixels.indices { flicker.pixels[i] &+= UInt8(i % 7) }   // up to 6 levels everywhere
        #expect(FrameThumbnail(flicker).changedFraction(since: grey, thresholdLevels: 12) == 0)
        let block = FrameThumbnail(scenePicture(blockPixels: 16))
        #expect(block.changedFraction(since: grey, thresholdLevels: 12) == 64.0 / 768)
        #expect(FrameThumbnail(RGBImage(width: 0, height: 0, pixels: [])).cellLuma.count == 768)
    }

    @Test("the cells around followed boxes: grown by their margins, and a damaged box covers nothing rather than crashing")
    func followedCells() {
        let thumbnail = FrameThumbnail(RGBImage(width: 640, height: 480, filledWith: (128, 128, 128)))
        // 40×60 pixels at (300, 200): cells 20 pixels square, so columns 15–16 by rows 10–12 bare, 13–18 by 9–13 grown.
        let box = BoundingBox(x0: 300, y0: 200, x1: 340, y1: 260)
        let bare = thumbnail.cells(covering: [box], widthMargin: 0, heightMargin: 0)
        #expect(bare.filter { $0 }.count == 2 * 3)
        let grown = thumbnail.cells(covering: [box], widthMargin: 1, heightMargin: 0.25)
        #expect(grown.filter { $0 }.count == 6 * 5)
        #expect(grown[9 * 32 + 13] && grown[13 * 32 + 18] && !grown[14 * 32 + 18] && !grown[9 * 32 + 19])
        let damaged = [BoundingBox(x0: .nan, y0: 0, x1: 10, y1: 10), BoundingBox(x0: 0, y0: 0, x1: .infinity, y1: 10)]
        #expect(thumbnail.cells(covering: damaged, widthMargin: 1, heightMargin: 0.25).allSatisfy { !$0 })
        let huge = thumbnail.cells(covering: [BoundingBox(x0: -1e30, y0: -1e30, x1: 1e30, y1: 1e30)], widthMargin: 1, heightMargin: 0.25)
        #expect(huge.allSatisfy { $0 })
        // Finite edges whose width overflows to infinity, with no margin (infinity × 0).
        let overflowing = BoundingBox(x0: -3e38, y0: -3e38, x1: 3e38, y1: 3e38)
        #expect(thumbnail.cells(covering: [overflowing], widthMargin: 0, heightMargin: 0).count == 768)
    }
}
