import Speech

/// Distances cut into ordinal bands (0 = closest), so that "came markedly closer" is a band
/// change rather than every small change of an estimate that is off by 15–30 % anyway.
///
/// A band change needs the distance to pass the edge by a margin: `hysteresis` (15 %, about one
/// standard error of the geometric cues) to go farther, half of it to come closer, so an object
/// hovering at an edge neither flips between bands nor is re-announced at each crossing, while
/// a real approach is still told promptly.
struct DistanceBands: Sendable, Equatable {
    /// Upper edges of the bands in meters, closest first; beyond the last edge is one more band.
    let edgesMeters: [Double]
    var hysteresis: Double = 0.15

    /// Each band twice as far as the one before (1, 2, 4, 8, 16 m): halving the distance is
    /// "markedly closer" whatever the distance, and a band change is at least a meter's news.
    static let approach = DistanceBands(edgesMeters: [1, 2, 4, 8, 16])

    /// The distances at which each closer band is taken, coming closer: half the hysteresis
    /// inside its edge (as `band(forMeters:previous:)` takes it).
    var closerBandTakenAtMeters: [Double] { edgesMeters.map { $0 / (1 + hysteresis / 2) } }

    /// The band for an unknown distance: farther than every measured one.
    var unknownBand: Int { edgesMeters.count + 1 }

    /// The band of `meters`, kept at `previous` while the distance is only just past its edge.
    func band(forMeters meters: Double?, previous: Int? = nil) -> Int {
        guard let meters, meters.isFinite else { return unknownBand }
        let raw = plainBand(meters)
        guard let previous else { return raw }
        if raw > previous, previous < edgesMeters.count {
            return meters < edgesMeters[previous] * (1 + hysteresis) ? previous : raw
        }
        if raw < previous {
            return max(raw, min(previous, plainBand(meters * (1 + hysteresis / 2))))
        }
        return raw
    }

    private func plainBand(_ meters: Double) -> Int {
        edgesMeters.firstIndex { meters < $0 } ?? edgesMeters.count
    }
}

/// How pressing an obstacle in the walking corridor is, from the farthest worth a word to the
/// inside of the user's own proximity threshold.
public enum ObstacleBand: Int, Sendable, Comparable, CaseIterable {
    /// Inside `GuidanceSettings.proximityWarningMeters`: loudest tone, strongest vibration.
    case insideProximity = 0
    case critical = 1
    case near = 2
    case far = 3

    public static func < (a: ObstacleBand, b: ObstacleBand) -> Bool { a.rawValue < b.rawValue }
}

/// What one corridor obstacle warrants: its band, how loud and how strongly felt.
struct ObstacleUrgency: Sendable, Equatable {
    let band: ObstacleBand
    /// 0–1, the earcon's loudness.
    let severity: Double
    let vibration: VibrationPattern

    /// critical < 1.5 m (two steps: the user must stop now), near < 3 m (about two seconds at
    /// walking speed 1.4 m/s), far up to `lookAheadMeters`.
    static let distanceBands = DistanceBands(edgesMeters: [1.5, 3, CorridorObstacles.lookAheadMeters])
    /// Closing this fast makes an obstacle critical whatever its distance: 2 s is about the time
    /// a walker needs to notice a warning, decide and stop or step aside.
    static let criticalTimeToCollisionSeconds = 2.0
    /// … and near below 4 s, twice that.
    static let nearTimeToCollisionSeconds = 4.0

    /// nil when the obstacle is beyond the look-ahead distance and not closing in critically.
    init?(distanceMeters: Double, timeToCollisionSeconds: Double?, proximityWarningMeters: Double, previous: ObstacleBand?) {
        let previousDistanceBand = previous.map { max($0.rawValue - 1, 0) }
        let distanceBand = Self.distanceBands.band(forMeters: distanceMeters, previous: previousDistanceBand)
        var band: ObstacleBand
        switch distanceBand {
        case 0: band = .critical
        case 1: band = .near
        case 2: band = .far
        default:
            guard let ttc = timeToCollisionSeconds, ttc < Self.criticalTimeToCollisionSeconds else { return nil }
            band = .far
        }
        if let ttc = timeToCollisionSeconds {
            if ttc < Self.criticalTimeToCollisionSeconds { band = min(band, .critical) }
            else if ttc < Self.nearTimeToCollisionSeconds { band = min(band, .near) }
        }
        let proximityEdge = previous == .insideProximity ? proximityWarningMeters * 1.15 : proximityWarningMeters
        if distanceMeters < proximityEdge { band = .insideProximity }
        self.band = band

        let bandSeverity: Double
        switch band {
        case .insideProximity: bandSeverity = 1
        case .critical: bandSeverity = 0.85
        case .near: bandSeverity = 0.6
        case .far: bandSeverity = 0.35
        }
        // Time to collision adds urgency continuously: 8 s away adds nothing, 0 s is the maximum.
        let collisionUrgency = timeToCollisionSeconds.map { min(max(1 - $0 / 8, 0), 1) } ?? 0
        severity = max(bandSeverity, collisionUrgency)
        var vibration = VibrationPattern.obstacle(distanceMeters: distanceMeters)
        vibration.strength = band == .insideProximity ? 1 : max(vibration.strength, severity)
        self.vibration = vibration
    }

    /// A spoken band for the utterance queue (0 closest), so a closer band is never held back.
    var queueBand: Int { band.rawValue }
}
