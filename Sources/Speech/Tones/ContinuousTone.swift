import Foundation

/// A tone that sounds without end (the light detector's, as in Seeing AI), its pitch gliding to each
/// new target across one block with the phase carried over, so a change of pitch never clicks.
///
/// One renderer for every place the tone is heard: `assist light --tone-to` renders it into a file,
/// and `UtteranceQueue` mixes it under speech in the live light mode.
public struct ContinuousTone: Sendable {
    public let sampleRateHz: Double
    /// Quiet beside speech: the tone is a background the user listens through.
    public var amplitude: Float = 0.2
    private var phase = 0.0
    private var currentPitchHz: Double?

    public init(sampleRateHz: Double) {
        self.sampleRateHz = sampleRateHz
    }

    /// The pitch reached at the end of the last block rendered; nil before the first.
    public var pitchHz: Double? { currentPitchHz }

    /// The next sample, `fraction` (0–1) of the way from the block's first pitch to `targetHz`.
    private mutating func nextSample(from startHz: Double, towards targetHz: Double, fraction: Double) -> Float {
        phase += 2 * .pi * (startHz + (targetHz - startHz) * fraction) / sampleRateHz
        if phase > 2 * .pi { phase -= 2 * .pi }
        return amplitude * Float(sin(phase))
    }

    /// `frameCount` mono samples gliding from the current pitch to `pitchHz`.
    public mutating func render(frameCount: Int, towards pitchHz: Double) -> [Float] {
        let start = currentPitchHz ?? pitchHz
        var samples = [Float](repeating: 0, count: frameCount)
        for i in 0..<frameCount {
            samples[i] = nextSample(from: start, towards: pitchHz, fraction: Double(i) / Double(max(frameCount, 1)))
        }
        currentPitchHz = pitchHz
        return samples
    }

    /// Mono samples of a tone holding each pitch until its moment (seconds from the start), gliding
    /// into each new one: how the light reading is rendered into a sound file.
    public static func render(holding pitches: [(untilSeconds: Double, pitchHz: Double)], sampleRateHz rate: Double) -> [Float] {
        var tone = ContinuousTone(sampleRateHz: rate)
        var output: [Float] = []
        for held in pitches {
            output += tone.render(frameCount: max(0, Int((held.untilSeconds * rate).rounded()) - output.count), towards: held.pitchHz)
        }
        return output
    }

    /// Adds `frameCount` frames of the tone to both channels of interleaved stereo `buffer`, gliding
    /// to `pitchHz`; sums are kept within −1…1. Does not allocate (the audio thread calls it).
    public mutating func add(into buffer: UnsafeMutableBufferPointer<Float>, frameCount: Int, towards pitchHz: Double) {
        let start = currentPitchHz ?? pitchHz
        for i in 0..<min(frameCount, buffer.count / 2) {
            let s = nextSample(from: start, towards: pitchHz, fraction: Double(i) / Double(max(frameCount, 1)))
            buffer[2 * i] = min(1, max(-1, buffer[2 * i] + s))
            buffer[2 * i + 1] = min(1, max(-1, buffer[2 * i + 1] + s))
        }
        currentPitchHz = pitchHz
    }
}
