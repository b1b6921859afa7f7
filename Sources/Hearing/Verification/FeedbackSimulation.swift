import Foundation

/// A simulated acoustic path from the earphone back to the microphone, shaped like measured
/// open-fit feedback paths (Spriet et al. 2007; the openMHA AFC example): a bulk delay (the
/// audio server's round trip and a few centimetres of air) followed by a short response that
/// peaks between 2 and 5 kHz, where an earbud's vent leaks most, and is 20 dB lower below 1 kHz.
public struct FeedbackPath: Sendable, Equatable {
    /// Frames before anything played arrives back. At least one hop: sound played during a hop
    /// is heard no sooner than the next one (and the simulation relies on it).
    public var delayFrames: Int
    public var impulseResponse: [Float]

    /// `gainDecibels`: the path's largest gain over frequency (its peak, near `resonanceHz`).
    public static func openFitEarbud(gainDecibels: Double, resonanceHz: Double = 3_000, delayFrames: Int = 96,
                                     sampleRate: Double = 48_000) -> FeedbackPath {
        let length = Int(2e-3 * sampleRate)
        let decay = 0.4e-3 * sampleRate
        let resonances = (0...length).map { n -> Double in
            let t = Double(n)
            return exp(-t / decay) * sin(2 * Double.pi * resonanceHz * t / sampleRate)
                + 0.5 * exp(-t / (0.6 * decay)) * sin(2 * Double.pi * 1.7 * resonanceHz * t / sampleRate + 0.7)
        }
        // A first difference: an earphone and a microphone pass nothing at DC, and low tones
        // leak least (+6 dB per octave up to the resonances).
        var h = (0..<length).map { n in resonances[n + 1] - resonances[n] }
        let peak = Self.peakMagnitude(h, sampleRate: sampleRate)
        let scale = pow(10, gainDecibels / 20) / peak
        h = h.map { $0 * scale }
        return FeedbackPath(delayFrames: delayFrames, impulseResponse: h.map(Float.init))
    }

    /// The largest |H(f)| on a 10 Hz grid up to 12 kHz.
    static func peakMagnitude(_ h: [Double], sampleRate: Double) -> Double {
        stride(from: 100.0, through: 12_000, by: 10).map { f in
            var re = 0.0, im = 0.0
            for (n, x) in h.enumerated() {
                let phase = 2 * Double.pi * f * Double(n) / sampleRate
                re += x * cos(phase); im -= x * sin(phase)
            }
            return (re * re + im * im).squareRoot()
        }.max() ?? 1
    }
}

/// Runs a prepared hearing aid in a closed loop with feedback paths, block by block: each ear's
/// microphone hears the source plus its own earphone through `path` (which switches to
/// `changedPath` at `changeAtFrame`, as when a hand comes near the ear). Driven by sample counts
/// only; allocates, for tests and benchmarks.
public enum FeedbackLoop {
    /// Stereo interleaved output for a mono `source`. The processor must take stereo input
    /// (each ear its own microphone) in blocks no longer than the path's delay.
    public static func run(_ processor: HearingAidProcessor, source: [Float], path: FeedbackPath,
                           changedPath: FeedbackPath? = nil, changeAtFrame: Int = .max) -> [Float] {
        guard let format = processor.format, format.inputChannels == 2 else { return [] }
        let block = format.blockSize
        precondition(block <= path.delayFrames && block <= (changedPath ?? path).delayFrames,
                     "the feedback path must be at least one block long")
        let blocks = source.count / block
        var output = [Float](repeating: 0, count: blocks * block * 2)
        var microphone = [Float](repeating: 0, count: block * 2)
        output.withUnsafeMutableBufferPointer { out in
          source.withUnsafeBufferPointer { source in
            for j in 0..<blocks {
                let start = j * block
                for i in 0..<block {
                    let n = start + i
                    let p = n >= changeAtFrame ? (changedPath ?? path) : path
                    let taps = min(p.impulseResponse.count, max(0, n - p.delayFrames + 1))
                    p.impulseResponse.withUnsafeBufferPointer { h in
                        for ear in 0..<2 {
                            var heard: Float = 0
                            let newest = (n - p.delayFrames) * 2 + ear
                            for k in 0..<taps { heard += h[k] * out[newest - 2 * k] }
                            microphone[i * 2 + ear] = source[n] + heard
                        }
                    }
                }
                microphone.withUnsafeBufferPointer { mic in
                    processor.process(input: mic.baseAddress!, output: out.baseAddress! + start * 2, frames: block)
                }
            }
          }
        }
        return output
    }

    /// How much louder (dB) the left output is over the last `seconds` with the loop closed than
    /// the same chain gives the same source without feedback: about 0 when stable, large when it
    /// howls (a ringing loop runs up to the maximum output). `makeProcessor` builds a fresh,
    /// prepared stereo-input processor for each of the two runs.
    public static func excessOutputDecibels(makeProcessor: () throws -> HearingAidProcessor, source: [Float],
                                            path: FeedbackPath, changedPath: FeedbackPath? = nil,
                                            changeAtFrame: Int = .max, seconds: Double = 1) throws -> Double {
        let open = try makeProcessor()
        let stereo = source.flatMap { [$0, $0] }
        let reference = open.processAll(stereo)
        let closed = run(try makeProcessor(), source: source, path: path, changedPath: changedPath, changeAtFrame: changeAtFrame)
        let frames = closed.count / 2
        let rate = open.format!.sampleRate
        let range = max(0, frames - Int(seconds * rate))..<frames
        let loud = SignalMeasurement.rms(closed, frames: range, channel: 0, channels: 2)
        let quiet = SignalMeasurement.rms(reference, frames: range, channel: 0, channels: 2)
        return 20 * log10(max(loud, 1e-12) / max(quiet, 1e-12))
    }
}

/// The added stable gain of feedback management on the simulated earbud path: for each setting,
/// the strongest path (peak gain, 2 dB steps) on which the prescribed chain stays within 3 dB of
/// its open-loop output over the last second of `seconds` of speech-shaped noise at 65 dB SPL.
public enum FeedbackBenchmark {
    public struct Row: Sendable {
        public let feedbackManagement: FeedbackManagement
        /// The strongest stable path gain (dB); the loop's stable gain rises one for one with it.
        public let maximumStablePathGainDecibels: Double
        /// Closed-loop minus open-loop output (dB) on a path 2 dB weaker than that, changing
        /// halfway (peak +300 Hz, +2 dB): the margin with a moving path.
        public let changingPathExcessDecibels: Double

        /// "off", "cancellation", "cancellation and howling suppression".
        public var settingName: String {
            switch feedbackManagement {
            case []: "off"
            case .cancellation: "cancellation"
            case .howlSuppression: "howling suppression"
            default: "cancellation and howling suppression"
            }
        }
    }

    public static func run(settings: HearingAidSettings, seconds: Double = 4,
                           pathGains: StrideThrough<Double> = stride(from: -30, through: 20, by: 2)) throws -> [Row] {
        let format = try ProcessingFormat(sampleRate: 48_000, blockSize: 64, inputChannels: 2)
        let source = TestSignals.speechShapedNoise(rmsDBFS: settings.calibration.inputDBFS(fromSPL: 65), seconds: seconds,
                                                   sampleRate: format.sampleRate, seed: 7)
        let frames = source.count / format.blockSize * format.blockSize
        let last = (frames - Int(format.sampleRate))..<frames
        return try [FeedbackManagement(), .cancellation, .all].map { feedback in
            var chosen = settings
            chosen.feedbackManagement = feedback
            chosen.startupRampSeconds = 0
            func make() throws -> HearingAidProcessor {
                let processor = HearingAidProcessor(control: try HearingAidControl(settings: chosen))
                try processor.prepare(format)
                return processor
            }
            let reference = SignalMeasurement.rms(try make().processAll(source.flatMap { [$0, $0] }), frames: last, channel: 0, channels: 2)
            func excess(_ path: FeedbackPath, changed: FeedbackPath? = nil) throws -> Double {
                let closed = FeedbackLoop.run(try make(), source: source, path: path, changedPath: changed, changeAtFrame: frames / 2)
                return 20 * log10(max(SignalMeasurement.rms(closed, frames: last, channel: 0, channels: 2), 1e-12) / max(reference, 1e-12))
            }
            var stable = -Double.infinity
            for gain in pathGains {
                if try excess(.openFitEarbud(gainDecibels: gain)) >= 3 { break }
                stable = gain
            }
            let margin = stable.isFinite
                ? try excess(.openFitEarbud(gainDecibels: stable - 2), changed: .openFitEarbud(gainDecibels: stable, resonanceHz: 3_300))
                : .nan
            return Row(feedbackManagement: feedback, maximumStablePathGainDecibels: stable, changingPathExcessDecibels: margin)
        }
    }
}
