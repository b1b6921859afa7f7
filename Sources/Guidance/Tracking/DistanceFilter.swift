import Foundation

/// A one-dimensional constant-velocity Kalman filter on an object's distance: smooths the
/// distance and estimates how fast it changes.
///
/// State: distance d (m) and its rate ḋ (m/s, negative when closing). Between measurements the
/// rate is assumed constant, with white acceleration noise of spectral density σa² (the discrete
/// white-noise-acceleration model, Bar-Shalom, Li & Kirubarajan 2001, §6.3.2). A measurement's
/// variance is (relative error × distance)², as every distance cue's error is relative.
public struct DistanceFilter: Sendable, Equatable {
    public private(set) var distanceMeters: Double
    /// d ḋ / dt: negative when the object comes closer.
    public private(set) var rateMetersPerSecond: Double
    public private(set) var lastUpdateSeconds: Double
    /// How many measurements have been folded in.
    public private(set) var measurementCount: Int
    // Covariance [[p00, p01], [p01, p11]].
    private var p00: Double, p01: Double, p11: Double
    private let accelerationNoise: Double

    /// Before the second measurement nothing is known of the rate; ±1.5 m/s (a brisk walk) is the
    /// prior spread of closing speeds.
    static let initialRateStandardDeviation = 1.5

    public init(meters: Double, relativeError: Double, atSeconds time: Double, accelerationNoiseMetersPerSecondSquared: Double) {
        distanceMeters = meters
        rateMetersPerSecond = 0
        lastUpdateSeconds = time
        measurementCount = 1
        let sigma = relativeError * meters
        p00 = sigma * sigma
        p01 = 0
        p11 = Self.initialRateStandardDeviation * Self.initialRateStandardDeviation
        accelerationNoise = accelerationNoiseMetersPerSecondSquared
    }

    /// Folds in a measured distance taken at `time` (seconds, same clock as before).
    public mutating func update(meters: Double, relativeError: Double, atSeconds time: Double) {
        let dt = max(0, time - lastUpdateSeconds)
        // Predict.
        let q = accelerationNoise * accelerationNoise
        distanceMeters += rateMetersPerSecond * dt
        let newP00 = p00 + 2 * dt * p01 + dt * dt * p11 + q * dt * dt * dt * dt / 4
        let newP01 = p01 + dt * p11 + q * dt * dt * dt / 2
        let newP11 = p11 + q * dt * dt
        (p00, p01, p11) = (newP00, newP01, newP11)
        // Update.
        let sigma = relativeError * meters
        let innovation = meters - distanceMeters
        let innovationVariance = p00 + sigma * sigma
        guard innovationVariance > 0 else { return }
        let gainDistance = p00 / innovationVariance, gainRate = p01 / innovationVariance
        distanceMeters += gainDistance * innovation
        rateMetersPerSecond += gainRate * innovation
        (p00, p01, p11) = ((1 - gainDistance) * p00, (1 - gainDistance) * p01, p11 - gainRate * p01)
        distanceMeters = max(distanceMeters, 0.01)
        lastUpdateSeconds = time
        measurementCount += 1
    }

    /// The closing speed in m/s (positive when the object comes closer); nil before two measurements.
    public var approachSpeedMetersPerSecond: Double? {
        measurementCount >= 2 ? -rateMetersPerSecond : nil
    }
}
