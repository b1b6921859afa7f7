import Foundation

/// What `assist hear verify` measures on the running chain, in the manner of a hearing-aid test
/// box (ANSI S3.22 "test mode": noise reduction off, no start-up ramp, volume at the prescription).
public struct VerificationReport: Sendable, Codable {
    public struct ToneGain: Sendable, Codable {
        public let ear: Ear
        public let frequencyHz: Double
        public let inputSPL: Double
        public let targetDecibels: Double
        public let measuredDecibels: Double
        public var errorDecibels: Double { measuredDecibels - targetDecibels }
    }

    public struct NoiseGain: Sendable, Codable {
        public let ear: Ear
        public let frequencyHz: Double
        /// The band's input level produced by 65 dB SPL speech-shaped noise (the target is read at this level).
        public let bandInputSPL: Double
        public let targetDecibels: Double
        public let measuredDecibels: Double
    }

    public struct MaximumOutput: Sendable, Codable {
        public let ear: Ear
        public let inputSPL: Double
        public let limitSPL: Double
        /// Peak output as the level of a sine with that peak.
        public let measuredPeakSPL: Double
        public let largestSample: Double
    }

    public let sampleRate: Double
    public let toneGains: [ToneGain]
    public let noiseGains: [NoiseGain]
    public let maximumOutput: [MaximumOutput]
    public let latencyFrames: Int
    public var latencyMilliseconds: Double { Double(latencyFrames) / sampleRate * 1000 }
    /// THD of a 1 kHz tone at 65 and 80 dB SPL (left ear), percent.
    public let distortionPercent: [Double: Double]
}

public enum ChainVerification {
    public static let levelsSPL: [Double] = [50, 65, 80]

    /// Runs every measurement on fresh chains built from `settings` at `sampleRate`.
    public static func run(settings: HearingAidSettings, sampleRate: Double = 48_000) throws -> VerificationReport {
        var testSettings = settings
        testSettings.bypass = [.noiseReduction]
        testSettings.startupRampSeconds = 0
        let calibration = settings.calibration
        func processor(_ s: HearingAidSettings = testSettings) throws -> HearingAidProcessor {
            let p = HearingAidProcessor(control: try HearingAidControl(settings: s))
            try p.prepare(try ProcessingFormat(sampleRate: sampleRate, blockSize: 64, inputChannels: 1))
            return p
        }

        var toneGains: [VerificationReport.ToneGain] = []
        for f in BandLayout.centreFrequenciesHz {
            for level in levelsSPL {
                let p = try processor()
                let input = TestSignals.tone(frequencyHz: f, amplitude: calibration.inputSineAmplitude(spl: level),
                                             seconds: 0.4, sampleRate: sampleRate)
                let output = p.processAll(input)
                let range = (input.count - Int(0.15 * sampleRate))..<input.count
                let inAmplitude = SignalMeasurement.toneAmplitude(input, frequencyHz: f, sampleRate: sampleRate, frames: range)
                for ear in Ear.allCases {
                    let outAmplitude = SignalMeasurement.toneAmplitude(output, frequencyHz: f, sampleRate: sampleRate, frames: range,
                                                                       channel: ear.channelIndex, channels: 2)
                    let measured = calibration.outputSPL(fromDBFS: decibels(amplitude: outAmplitude))
                        - calibration.inputSPL(fromDBFS: decibels(amplitude: inAmplitude))
                    let target = targetGain(settings.prescription[ear].band(atHz: f)!, inputSPL: level)
                    toneGains.append(.init(ear: ear, frequencyHz: f, inputSPL: level, targetDecibels: target, measuredDecibels: measured))
                }
            }
        }

        // Speech-shaped noise at 65 dB SPL: band gains from averaged power spectra of input and output.
        var noiseGains: [VerificationReport.NoiseGain] = []
        do {
            let p = try processor()
            let noise = TestSignals.speechShapedNoise(rmsDBFS: calibration.inputDBFS(fromSPL: 65), seconds: 2, sampleRate: sampleRate)
            let output = p.processAll(noise)
            let skip = Int(0.5 * sampleRate)
            let inBands = bandPowers(noise, channel: 0, channels: 1, from: skip, sampleRate: sampleRate)
            for ear in Ear.allCases {
                let outBands = bandPowers(output, channel: ear.channelIndex, channels: 2, from: skip, sampleRate: sampleRate)
                for (b, f) in BandLayout.centreFrequenciesHz.enumerated() {
                    let bandLevel = calibration.inputSPL(fromDBFS: decibels(power: 2 * inBands[b]))
                    let measured = decibels(power: outBands[b] / inBands[b]) + calibration.outputFullScaleSPL - calibration.inputFullScaleSPL
                    let target = targetGain(settings.prescription[ear].band(atHz: f)!, inputSPL: bandLevel)
                    noiseGains.append(.init(ear: ear, frequencyHz: f, bandInputSPL: bandLevel, targetDecibels: target, measuredDecibels: measured))
                }
            }
        }

        // Maximum output: a 100 dB SPL sweep with the limiter on.
        var maximumOutput: [VerificationReport.MaximumOutput] = []
        do {
            var limited = testSettings
            limited.bypass = [.noiseReduction]
            let p = try processor(limited)
            let sweep = TestSignals.sweep(fromHz: 200, toHz: 8000, amplitude: calibration.inputSineAmplitude(spl: 100),
                                          seconds: 1, sampleRate: sampleRate)
            let output = p.processAll(sweep)
            for ear in Ear.allCases {
                let peak = Double(SignalMeasurement.peak(output, frames: 0..<sweep.count, channel: ear.channelIndex, channels: 2))
                maximumOutput.append(.init(ear: ear, inputSPL: 100, limitSPL: settings.prescription.options.maximumOutputSPL,
                                           measuredPeakSPL: calibration.outputSPL(fromDBFS: decibels(amplitude: peak)),
                                           largestSample: peak))
            }
        }

        // Latency: an impulse through the chain with compression bypassed (a linear system).
        var linear = testSettings
        linear.bypass = [.noiseReduction, .compression]
        let latencyProcessor = try processor(linear)
        let impulseAt = 2000
        let response = latencyProcessor.processAll(TestSignals.impulse(at: impulseAt, amplitude: 0.1, count: 8000))
        var peakIndex = 0
        for n in 0..<8000 where abs(response[2 * n]) > abs(response[2 * peakIndex]) { peakIndex = n }

        var distortion: [Double: Double] = [:]
        for level in [65.0, 80.0] {
            let p = try processor()
            let input = TestSignals.tone(frequencyHz: 1000, amplitude: calibration.inputSineAmplitude(spl: level), seconds: 0.4,
                                         sampleRate: sampleRate)
            let output = p.processAll(input)
            distortion[level] = SignalMeasurement.harmonicDistortionPercent(output, fundamentalHz: 1000, sampleRate: sampleRate,
                                                                             frames: (input.count - 7200)..<input.count,
                                                                             channel: 0, channels: 2)
        }

        return VerificationReport(sampleRate: sampleRate, toneGains: toneGains, noiseGains: noiseGains, maximumOutput: maximumOutput,
                                  latencyFrames: peakIndex - impulseAt, distortionPercent: distortion)
    }

    /// The fitted target for a band input level (a tone's level, or a measured band level):
    /// the band's gain rule, held so that input + gain stays at or below
    /// the band's maximum output (that is part of the prescription too).
    static func targetGain(_ band: BandTarget, inputSPL: Double) -> Double {
        min(band.insertionGain(bandLevelSPL: inputSPL), band.maximumOutputSPL - inputSPL)
    }

    /// Mean-square power per chain band (same edges as the chain's level meters), from averaged
    /// 2048-point Hann-windowed spectra.
    static func bandPowers(_ signal: [Float], channel: Int, channels: Int, from start: Int, sampleRate: Double) -> [Double] {
        let n = 2048
        let fft = RealFFT(size: n)
        let layout = BandLayout(fftSize: n, sampleRate: sampleRate)
        var sums = [Double](repeating: 0, count: BandLayout.bandCount)
        let frame = fft.samples, spectrum = fft.spectrum
        let window = (0..<n).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n))) }
        let windowPower = window.reduce(0) { $0 + Double($1 * $1) }
        var frames = 0
        var position = start
        let count = signal.count / channels
        while position + n <= count {
            for i in 0..<n { frame[i] = signal[(position + i) * channels + channel] * window[i] }
            fft.forward()
            for k in 0..<spectrum.count where layout.bandOfBin[k] >= 0 {
                sums[layout.bandOfBin[k]] += Double(spectrum[k].r * spectrum[k].r + spectrum[k].i * spectrum[k].i)
            }
            frames += 1
            position += n / 2
        }
        // Σ|X_k|² over positive bins = (N·Σw²/2)·mean square (Parseval, one-sided).
        return sums.map { $0 * 2 / (Double(n) * windowPower) / Double(max(frames, 1)) }
    }
}
