import Foundation

/// Short synthesised sounds that say something faster than words: one per hazard class and one
/// per event. Each has its own pitch contour and rhythm so they can be told apart without
/// learning more than a handful.
public enum Earcon: String, Sendable, CaseIterable, Hashable {
    /// A vehicle: a fast two-tone alternation, like a small siren.
    case vehicleHazard = "vehicle"
    /// A drop (stairs down, kerb, platform edge): a falling sweep.
    case dropHazard = "drop"
    /// An obstacle in the way: three short high pips.
    case obstacleHazard = "obstacle"
    /// Guidance started: a rising fifth.
    case started
    /// Guidance stopped: a falling fifth.
    case stopped
    /// Nothing was found: one soft low note.
    case nothingFound = "nothing-found"
    /// Something failed: a low buzz, twice.
    case error
}

/// One note of an earcon: a tone sliding from one frequency to another with a short fade at both
/// ends (the fades keep the note from clicking).
struct EarconNote {
    var startHz: Double
    var endHz: Double
    var seconds: Double
    /// Silence after the note.
    var gapSeconds: Double = 0
    /// Odd harmonics added for a buzzier, more urgent timbre (0 = pure sine).
    var buzz: Double = 0
}

/// Renders earcons as mono samples. Loudness follows severity; a category the user marked loud
/// is played louder still.
public struct ToneSynthesizer: Sendable {
    public let sampleRateHz: Double
    /// Earcons the user asked to hear loud (e.g. in traffic).
    public var loudEarcons: Set<Earcon>

    public init(sampleRateHz: Double, loudEarcons: Set<Earcon> = []) {
        self.sampleRateHz = sampleRateHz
        self.loudEarcons = loudEarcons
    }

    /// Peak amplitude (full scale 1) for a severity 0–1: from 0.2 (a quiet cue that does not mask
    /// the street) up to 0.6; a loud category adds 50 %, to at most 0.9 to leave headroom.
    public func peakAmplitude(for earcon: Earcon, severity: Double) -> Double {
        let base = 0.2 + 0.4 * min(max(severity, 0), 1)
        return loudEarcons.contains(earcon) ? min(base * 1.5, 0.9) : base
    }

    static func notes(for earcon: Earcon) -> [EarconNote] {
        switch earcon {
        case .vehicleHazard:
            return (0..<3).flatMap { _ in [EarconNote(startHz: 988, endHz: 988, seconds: 0.06),
                                          EarconNote(startHz: 740, endHz: 740, seconds: 0.06)] }
        case .dropHazard:
            return [EarconNote(startHz: 1200, endHz: 350, seconds: 0.25)]
        case .obstacleHazard:
            return (0..<3).map { _ in EarconNote(startHz: 1568, endHz: 1568, seconds: 0.04, gapSeconds: 0.04) }
        case .started:
            return [EarconNote(startHz: 523, endHz: 523, seconds: 0.09, gapSeconds: 0.02),
                    EarconNote(startHz: 784, endHz: 784, seconds: 0.12)]
        case .stopped:
            return [EarconNote(startHz: 784, endHz: 784, seconds: 0.09, gapSeconds: 0.02),
                    EarconNote(startHz: 523, endHz: 523, seconds: 0.12)]
        case .nothingFound:
            return [EarconNote(startHz: 330, endHz: 330, seconds: 0.15)]
        case .error:
            return [EarconNote(startHz: 220, endHz: 220, seconds: 0.1, gapSeconds: 0.05, buzz: 0.5),
                    EarconNote(startHz: 220, endHz: 220, seconds: 0.1, buzz: 0.5)]
        }
    }

    /// The earcon as mono samples in −1…1.
    public func render(_ earcon: Earcon, severity: Double = 0.5) -> [Float] {
        let peak = peakAmplitude(for: earcon, severity: severity)
        let fadeFrames = Int(0.005 * sampleRateHz)
        var samples: [Float] = []
        for note in Self.notes(for: earcon) {
            let frames = Int(note.seconds * sampleRateHz)
            var phase = 0.0
            // Harmonics 3 and 5 at 1/3 and 1/5 of `buzz`: a square-ish wave; normalised to peak.
            let norm = 1 + note.buzz * (1.0 / 3 + 1.0 / 5)
            for i in 0..<frames {
                let hz = note.startHz + (note.endHz - note.startHz) * Double(i) / Double(max(frames - 1, 1))
                phase += 2 * Double.pi * hz / sampleRateHz
                var value = sin(phase) + note.buzz * (sin(3 * phase) / 3 + sin(5 * phase) / 5)
                value /= norm
                let fade = min(1, Double(min(i, frames - 1 - i)) / Double(max(fadeFrames, 1)))
                samples.append(Float(value * peak * fade))
            }
            samples.append(contentsOf: repeatElement(0, count: Int(note.gapSeconds * sampleRateHz)))
        }
        return samples
    }
}
