import Testing
@testable import LiveGuidance

@Suite("Distance bands")
struct DistanceBandsTests {
    let bands = DistanceBands.approach  // edges 1, 2, 4, 8, 16 m

    @Test("without history a distance falls in the band its edges give; unknown is farthest")
    func plainBands() {
        #expect(bands.band(forMeters: 0.5) == 0)
        #expect(bands.band(forMeters: 1) == 1)
        #expect(bands.band(forMeters: 3.9) == 2)
        #expect(bands.band(forMeters: 30) == 5)
        #expect(bands.band(forMeters: nil) == 6)
        #expect(bands.band(forMeters: .nan) == 6)
    }

    @Test("going farther needs 15 % past the edge, coming closer 7.5 %")
    func hysteresis() {
        #expect(bands.band(forMeters: 2.2, previous: 1) == 1)
        #expect(bands.band(forMeters: 2.4, previous: 1) == 2)
        #expect(bands.band(forMeters: 1.9, previous: 2) == 2)
        #expect(bands.band(forMeters: 1.8, previous: 2) == 1)
        // A jump over several bands is taken at once.
        #expect(bands.band(forMeters: 0.5, previous: 4) == 0)
        #expect(bands.band(forMeters: 10, previous: 1) == 4)
    }

    @Test("an obstacle closing in fast is critical before it is near by distance, and inside the threshold is strongest")
    func obstacleUrgency() throws {
        let slow = try #require(ObstacleUrgency(distanceMeters: 2.5, timeToCollisionSeconds: nil,
                                                proximityWarningMeters: 1, previous: nil))
        let fast = try #require(ObstacleUrgency(distanceMeters: 2.5, timeToCollisionSeconds: 1.2,
                                                proximityWarningMeters: 1, previous: nil))
        #expect(slow.band == .near)
        #expect(fast.band == .critical)
        #expect(fast.severity > slow.severity)
        #expect(fast.vibration.strength > slow.vibration.strength)
        #expect(ObstacleUrgency(distanceMeters: 7, timeToCollisionSeconds: nil, proximityWarningMeters: 1, previous: nil) == nil)
        let inside = try #require(ObstacleUrgency(distanceMeters: 0.9, timeToCollisionSeconds: nil,
                                                  proximityWarningMeters: 1, previous: nil))
        #expect(inside.band == .insideProximity && inside.vibration.strength == 1 && inside.severity == 1)
    }
}
