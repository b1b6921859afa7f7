import Foundation

/// Estimates how far a spoken command stands above the background: the signal-to-noise ratio
/// the recogniser had to work with. pocketsphinx's acoustic model was trained on quiet speech
/// and falls apart in noise (measured with `assist bench voice`: 96 % of commands right when
/// clean, about 70 % at 20 dB, 10 % at 10 dB), while its grammar search still returns *some*
/// command with full confidence. The ratio is what lets the listener say "too noisy" instead
/// of acting on a command nobody gave.
///
/// Levels are measured on 10 ms frames. The background is a low percentile of the frame levels
/// heard over the last few seconds (pauses between words and the silence around a command are
/// quieter than speech; steady noise fills them), and the speech level is the power over the
/// utterance's active frames (within 40 dB of its loudest, as `NoiseMixer` defines SNR for the
/// tests), less the background's power.
public struct SpeechLevelMeter: Sendable {
    public static let frameSamples = 160  // 10 ms at 16 kHz
    /// Frames of history the background is estimated from.
    public var historyFrames: Int
    /// Which quantile of the frame powers in the history is the background.
    public var backgroundQuantile: Double

    private var history: [Double] = []  // mean power per frame, oldest first
    private var historyStart = 0
    private var utterance: [Double] = []
    private var partialSum = 0.0, partialCount = 0

    public init(historySeconds: Double = 5, backgroundQuantile: Double = 0.1) {
        historyFrames = max(10, Int(historySeconds * 100))
        self.backgroundQuantile = backgroundQuantile
    }

    /// Adds samples heard; `inUtterance` marks those that belong to the utterance being recognised.
    public mutating func add(_ samples: UnsafeBufferPointer<Int16>, inUtterance: Bool) {
        for sample in samples {
            let value = Double(sample) / 32768
            partialSum += value * value
            partialCount += 1
            if partialCount == Self.frameSamples {
                let power = partialSum / Double(partialCount)
                appendFrame(power, inUtterance: inUtterance)
                partialSum = 0
                partialCount = 0
            }
        }
    }

    private mutating func appendFrame(_ power: Double, inUtterance: Bool) {
        history.append(power)
        if history.count - historyStart > historyFrames { historyStart += 1 }
        if historyStart > 4 * historyFrames {  // compact now and then, not on every frame
            history.removeFirst(historyStart)
            historyStart = 0
        }
        if inUtterance { utterance.append(power) }
    }

    /// Power of the background now (mean square, full scale 1).
    public var backgroundPower: Double {
        let recent = history[historyStart...].sorted()
        guard !recent.isEmpty else { return 0 }
        return recent[min(recent.count - 1, Int(Double(recent.count) * backgroundQuantile))]
    }

    /// The utterance's signal-to-noise ratio in dB (+∞ over digital silence, −∞ when the
    /// utterance was no louder than the background), and starts measuring the next utterance.
    public mutating func finishUtterance() -> Double {
        defer { utterance.removeAll(keepingCapacity: true) }
        guard let activePower = Self.activePower(ofFrames: utterance) else { return -.infinity }
        let background = backgroundPower
        let speechPower = activePower - background
        guard speechPower > 0 else { return -.infinity }
        guard background > 0 else { return .infinity }
        return 10 * log10(speechPower / background)
    }

    /// Mean power of the active frames: those within 40 dB of the loudest (ITU-T P.56's idea of
    /// active speech). The one definition of speech level, for the meter and for `NoiseMixer`
    /// mixing test noise; nil when every frame is silent.
    public static func activePower(ofFrames powers: [Double]) -> Double? {
        guard let loudest = powers.max(), loudest > 0 else { return nil }
        let active = powers.filter { $0 >= loudest * 1e-4 }
        return active.reduce(0, +) / Double(active.count)
    }

    /// Forgets the utterance being measured (the background history is kept: the room is the same).
    public mutating func discardUtterance() {
        utterance.removeAll(keepingCapacity: true)
    }
}
