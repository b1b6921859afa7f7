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
    /// The level contour the syllables are counted on: the utterance's frames, preceded by the
    /// few heard just before it (the detector opens some frames into the speech, so a first
    /// syllable's rise would otherwise be missed).
    private var contour: [Double] = []
    /// Frames heard since the last utterance (the latest `historyFrames` of them).
    private var outside: [Double] = []
    private static let contourLeadFrames = 30
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
        if inUtterance {
            if utterance.isEmpty {
                contour = Array(history[max(historyStart, history.count - 1 - Self.contourLeadFrames)..<(history.count - 1)])
            }
            utterance.append(power)
            contour.append(power)
            outside.removeAll(keepingCapacity: true)
        } else {
            outside.append(power)
            if outside.count > 2 * historyFrames { outside.removeFirst(outside.count - historyFrames) }
        }
    }

    /// Level swings of at least this much (dB) count as a syllable. Steady white noise moves the
    /// 30 ms level by about 0.3 dB (standard deviation; a 10 ms frame of 160 samples, averaged
    /// over three), so 3 dB is never reached by it, while each syllable of speech mixed at 0 dB
    /// SNR lifts the level by about 5 dB above the noise between syllables.
    public static let syllableSwingDecibels = 3.0

    /// Syllables heard in the utterance being measured: humps of the 30 ms level contour, each a
    /// rise of `syllableSwingDecibels` from the lowest level since the last hump and a fall by as
    /// much from its top. Speech comes in syllables, a few per second; steady noise has none, and
    /// noise that starts (or gets louder) and stays is a rise without a fall, so none either.
    public var syllablesInUtterance: Int { Self.syllables(inFrames: contour) }

    /// Syllables in the frames heard outside utterances, the last `frames` of them: speech the
    /// detector did not open on (in heavy noise it adapts to the noise and misses the voice).
    public func syllablesOutsideUtterances(lastFrames frames: Int) -> Int {
        Self.syllables(inFrames: Array(outside.suffix(frames)))
    }

    /// The signal-to-noise ratio of the last `frames` heard outside utterances, in dB, measured
    /// as `finishUtterance` measures an utterance; forgets them, so they are reported once.
    public mutating func finishOutsideUtterances(lastFrames frames: Int) -> Double {
        defer { outside.removeAll(keepingCapacity: true) }
        return signalToNoiseDecibels(ofFrames: Array(outside.suffix(frames)))
    }

    /// Humps of the 30 ms level contour of `powers` (10 ms frames), as `syllablesInUtterance` counts them.
    static func syllables(inFrames contour: [Double]) -> Int {
        guard contour.count >= 3 else { return 0 }
        let levels: [Double] = (1..<(contour.count - 1)).map { index in
            let power: Double = (contour[index - 1] + contour[index] + contour[index + 1]) / 3
            return 10 * log10(max(1e-10, power))
        }
        var syllables = 0
        var lowest = levels[0], highest = levels[0]
        var rising = true  // looking for a rise from `lowest`; otherwise for a fall from `highest`
        for level in levels {
            if rising {
                lowest = min(lowest, level)
                if level >= lowest + Self.syllableSwingDecibels {
                    rising = false
                    highest = level
                }
            } else {
                highest = max(highest, level)
                if level <= highest - Self.syllableSwingDecibels {
                    syllables += 1
                    rising = true
                    lowest = level
                }
            }
        }
        return syllables
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
        defer {
            utterance.removeAll(keepingCapacity: true)
            contour.removeAll(keepingCapacity: true)
        }
        return signalToNoiseDecibels(ofFrames: utterance)
    }

    private func signalToNoiseDecibels(ofFrames frames: [Double]) -> Double {
        guard let activePower = Self.activePower(ofFrames: frames) else { return -.infinity }
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
        contour.removeAll(keepingCapacity: true)
        outside.removeAll(keepingCapacity: true)
    }
}
