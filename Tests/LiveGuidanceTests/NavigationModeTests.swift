import Perception
import Speech
import Testing
@testable import LiveGuidance

@Suite("Scene navigation")
struct NavigationModeTests {
    @Test("walking towards a chair: far, near, critical, then inside the proximity threshold, each louder and felt stronger")
    func warningsEscalate() throws {
        var harness = try PolicyHarness(mode: .navigate)
        var warnings: [Announcement] = []
        for step in 0..<30 {
            warnings += harness.frame([sighting("chair", meters: 5 - Double(step) * 0.15, degrees: 3)])
        }
        #expect(warnings.count == 4)
        #expect(warnings.map(\.utterance.distanceBand) == [3, 2, 1, 0])
        let severities = warnings.map(\.utterance.severity)
        #expect(severities == severities.sorted() && Set(severities).count == 4)
        let strengths = warnings.compactMap(\.vibration?.strength)
        #expect(strengths.count == 4 && strengths == strengths.sorted())
        #expect(strengths.last == 1)
        #expect(warnings.allSatisfy { $0.utterance.earcon == .obstacleHazard })
        #expect(warnings.last?.utterance.priority == .hazard)
        #expect(warnings.first?.utterance.priority == .newObject)
    }

    @Test("a chair standing still in the corridor is warned about once")
    func noRepeatWhileStill() throws {
        var harness = try PolicyHarness(mode: .navigate)
        let said = harness.frames(20, [sighting("chair", meters: 2.4, degrees: 0)])
        #expect(said.phrases == ["Chair, 2 meters, ahead."])
    }

    @Test("a short time to collision makes a far obstacle critical before its distance does")
    func timeToCollisionRaisesUrgency() throws {
        var harness = try PolicyHarness(mode: .navigate)
        // A person closing at 2 m/s from 4.8 m: time to collision under 2 s while still over 1.5 m away.
        var bands: [(meters: Double, band: Int)] = []
        for step in 0..<10 {
            let meters = 4.8 - Double(step) * 0.4
            for warning in harness.frame([sighting("person", meters: meters, degrees: 0)]) {
                bands.append((meters, warning.utterance.distanceBand ?? -1))
            }
        }
        #expect(bands.contains { $0.band == ObstacleBand.critical.rawValue && $0.meters > 1.5 })
    }

    @Test("an object 30 degrees to the side at 2 m is outside the 0.9 m corridor and not an obstacle")
    func outsideCorridor() throws {
        var harness = try PolicyHarness(mode: .navigate)
        #expect(harness.frames(10, [sighting("chair", meters: 2, degrees: 30)]).isEmpty)
    }

    @Test("what only the class-free cue sees is an obstacle at its distance, to the half meter")
    func classFreeObstacle() throws {
        var harness = try PolicyHarness(mode: .navigate)
        let wall = CorridorReading(nearestObstacleMeters: 1.6, examinedToMeters: 1.6, source: .depthImage)
        let said = harness.frames(5, [], corridor: wall)
        #expect(said.phrases == ["Obstacle, 1.5 meters ahead."])
        #expect(said.first?.utterance.contentKey == "corridor")
    }

    @Test("a chair the depth cue also sees is warned about once, as a chair")
    func classFreeAndDetectionAreOne() throws {
        var harness = try PolicyHarness(mode: .navigate)
        let cue = CorridorReading(nearestObstacleMeters: 2.2, examinedToMeters: 2.2, source: .depthImage)
        let said = harness.frames(5, [sighting("chair", meters: 2.4, degrees: 0)], corridor: cue)
        #expect(said.phrases == ["Chair, 2 meters, ahead."])
    }

    @Test("\"Path clear.\" once when the blocked corridor clears, and only if the cue looked far enough")
    func pathClear() throws {
        var harness = try PolicyHarness(mode: .navigate)
        let blocked = CorridorReading(nearestObstacleMeters: 2, examinedToMeters: 2, source: .freeFloor)
        let shortSight = CorridorReading(nearestObstacleMeters: nil, examinedToMeters: 1.2, source: .freeFloor)
        let clear = CorridorReading(nearestObstacleMeters: nil, examinedToMeters: 4.5, source: .freeFloor)
        _ = harness.frames(3, [], corridor: blocked)
        #expect(!harness.frames(3, [], corridor: shortSight).phrases.contains("Path clear."))
        #expect(harness.frames(10, [], corridor: clear).phrases == ["Path clear."])
        // Clear from the start is no news.
        var fresh = try PolicyHarness(mode: .navigate)
        #expect(fresh.frames(5, [], corridor: clear).isEmpty)
    }

    @Test("\"are there any obstacles?\" is answered once in continuous mode too")
    func checkObstaclesInAnyMode() throws {
        var harness = try PolicyHarness(mode: .continuous)
        let chair = [sighting("chair", meters: 2, degrees: 1)]
        _ = harness.frames(3, chair)
        _ = harness.request(.checkObstacles)
        #expect(harness.policy.wantsCorridor)
        let answer = harness.frame(chair)
        #expect(answer.phrases == ["Chair, 2 meters, ahead."])
        #expect(answer.first?.utterance.priority == .answer)
        #expect(!harness.policy.wantsCorridor)
        #expect(harness.frames(3, chair).isEmpty)
        _ = harness.request(.checkObstacles)
        let clear = CorridorReading(nearestObstacleMeters: nil, examinedToMeters: 4, source: .depthImage)
        #expect(harness.frame([], corridor: clear).phrases.contains("Path clear."))
    }

    @Test("inside a proximity threshold of 2 m the warning is at full strength already at 1.8 m")
    func userProximityThreshold() throws {
        var settings = GuidanceSettings()
        settings.proximityWarningMeters = 2
        var harness = try PolicyHarness(mode: .navigate, settings: settings)
        let said = harness.frames(5, [sighting("bench", meters: 1.8, degrees: 0)])
        #expect(said.count == 1)
        #expect(said.first?.utterance.distanceBand == ObstacleBand.insideProximity.rawValue)
        #expect(said.first?.vibration?.strength == 1)
        #expect(said.first?.utterance.severity == 1)
    }

    @Test("asked about obstacles in navigation, the answer is not followed by the same warning")
    func answerAndWarningNotBoth() throws {
        var harness = try PolicyHarness(mode: .navigate)
        let chair = [sighting("chair", meters: 2.4, degrees: 0)]
        _ = harness.frame(chair)
        _ = harness.request(.checkObstacles)
        let said = harness.frame(chair)
        #expect(said.phrases == ["Chair, 2 meters, ahead."])
        #expect(said.first?.utterance.priority == .answer)
        #expect(harness.frames(5, chair).isEmpty)
    }
}
