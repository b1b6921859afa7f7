import Foundation

/// Puts a mono sound at a direction in the stereo field, so "left" is also heard on the left:
/// constant-power panning (the sum of the squared gains is 1 wherever the object is) plus the
/// small delay with which sound reaches the far ear first.
public struct StereoPlacement: Sendable, Equatable {
    /// Head radius 8.75 cm and speed of sound 343 m/s (Woodworth's spherical-head model): the
    /// interaural delay is r/c·(θ + sin θ), at most about 0.66 ms at 90°.
    static let headRadiusMeters = 0.0875
    static let speedOfSoundMetersPerSecond = 343.0

    public let leftGain: Double
    public let rightGain: Double
    /// How much later the far ear hears the sound.
    public let interauralDelaySeconds: Double
    /// True when the left ear is the far one (the object is on the right).
    public let delaysLeftEar: Bool

    /// Centred, the same in both ears (also what mono listeners get).
    public static let centre = StereoPlacement(leftGain: 1 / 2.0.squareRoot(), rightGain: 1 / 2.0.squareRoot(),
                                               interauralDelaySeconds: 0, delaysLeftEar: false)

    init(leftGain: Double, rightGain: Double, interauralDelaySeconds: Double, delaysLeftEar: Bool) {
        self.leftGain = leftGain
        self.rightGain = rightGain
        self.interauralDelaySeconds = interauralDelaySeconds
        self.delaysLeftEar = delaysLeftEar
    }

    /// `directionDegrees`: 0 ahead, −90 hard left, +90 hard right (clamped to that range; an
    /// object behind is placed at the side it is on).
    public init(directionDegrees: Double) {
        let clamped = min(max(directionDegrees, -90), 90)
        // Pan angle 0 (left) … π/2 (right).
        let pan = (clamped + 90) / 180 * Double.pi / 2
        leftGain = cos(pan)
        rightGain = sin(pan)
        let theta = abs(clamped) * Double.pi / 180
        interauralDelaySeconds = Self.headRadiusMeters / Self.speedOfSoundMetersPerSecond * (theta + sin(theta))
        delaysLeftEar = clamped > 0
    }

    /// Interleaved stereo frames of `mono`, placed; the delayed ear's channel is longer by the
    /// delay, so the result has `mono.count + delayFrames` frames.
    public func place(_ mono: [Float], sampleRateHz: Double) -> [Float] {
        let delayFrames = Int((interauralDelaySeconds * sampleRateHz).rounded())
        let frames = mono.count + delayFrames
        var stereo = [Float](repeating: 0, count: frames * 2)
        let left = Float(leftGain), right = Float(rightGain)
        let leftOffset = delaysLeftEar ? delayFrames : 0
        let rightOffset = delaysLeftEar ? 0 : delayFrames
        for (i, sample) in mono.enumerated() {
            stereo[(i + leftOffset) * 2] = sample * left
            stereo[(i + rightOffset) * 2 + 1] = sample * right
        }
        return stereo
    }
}
