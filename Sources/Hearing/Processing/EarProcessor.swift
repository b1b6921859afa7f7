import Foundation

/// The chain for one ear: filterbank analysis → band levels → WDRC gains + program/volume
/// offsets, held under the band maximum output → noise-reduction gains → per-bin gains →
/// synthesis → output limiter. With feedback management on, the microphone first loses the
/// feedback canceller's prediction, and a howling band's gain is lowered before the MPO check. Prepared once; `process` allocates nothing and takes no lock.
final class EarProcessor {
    let ear: Ear
    private let filterbank = WOLAFilterbank()
    private let fineLevels = FineBandLevels()
    private let compressor = WideDynamicRangeCompressor()
    private let noiseReducer = NoiseReducer()
    private let limiter = OutputLimiter()
    private let feedbackCanceller = FeedbackCanceller()
    private let howlDetector = HowlDetector()
    private var guardedInput = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var minimumHowlBinPower: Float = 0
    private var layout = BandLayout(fftSize: 256, sampleRate: 48_000)
    // `layout`'s tables in the form the per-hop loops read, made once in `prepare`: plain memory,
    // so the audio thread does no array retain or bounds check.

    /// The bins whose power makes each band's level: consecutive, since `layout.bandOfBin` rises with the bin.
    private var binsOfBand = UnsafeMutableBufferPointer<Range<Int>>(start: nil, count: 0)
    /// Runs of consecutive bins that interpolate their gain from the same two bands with the
    /// same weight (`layout.lowerBandOfBin`, `.upperWeightOfBin`), and so get the same gain: the
    /// bins below 250 Hz and the 86 bins above 8 kHz take one gain each, computed once.
    private var gainRuns = UnsafeMutableBufferPointer<GainRun>(start: nil, count: 0)
    private struct GainRun {
        let lowerBand: Int
        let upperWeight: Float
        let bins: Range<Int>
    }
    /// `layout.inverseBinCount`.
    private var inverseBinCount = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var bandPower = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var levelSPL = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var compressionGain = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var noiseGain = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var bandGain = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var bandDensity = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var hopOutput = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var powerScale: Float = 0
    private var hopSeconds = 0.0
    private var muteFactor: Float = 1
    private var muteStep: Float = 0
    /// 0…1: how much of the prescription's gain is applied while ramping in after a new prescription.
    private(set) var rampFraction: Float = 0
    private(set) var isPrepared = false
    /// Mono input feeds both ears; only the left one counts its damaged samples.
    private var countsDamagedInput = true

    init(ear: Ear) { self.ear = ear }

    var latencyFrames: Int { filterbank.latencyFrames }

    func prepare(_ format: ProcessingFormat, calibration: LevelCalibration) {
        release()
        let n = format.fftSize, r = format.hopSize, bands = BandLayout.bandCount
        filterbank.prepare(fftSize: n, hopSize: r)
        layout = BandLayout(fftSize: n, sampleRate: format.sampleRate)
        binsOfBand = .allocate(capacity: bands)
        for b in 0..<bands {
            let bins = layout.bandOfBin.indices.filter { layout.bandOfBin[$0] == b }
            precondition(bins.isEmpty || bins.count == bins.last! - bins.first! + 1, "a band's bins must be consecutive")
            binsOfBand.initializeElement(at: b, to: bins.isEmpty ? 0..<0 : bins.first!..<(bins.last! + 1))
        }
        var runs: [GainRun] = []
        for k in layout.lowerBandOfBin.indices {
            let band = layout.lowerBandOfBin[k], weight = layout.upperWeightOfBin[k]
            if let last = runs.last, last.lowerBand == band, last.upperWeight == weight {
                runs[runs.count - 1] = GainRun(lowerBand: band, upperWeight: weight, bins: last.bins.lowerBound..<(k + 1))
            } else {
                runs.append(GainRun(lowerBand: band, upperWeight: weight, bins: k..<(k + 1)))
            }
        }
        gainRuns = .allocate(capacity: runs.count); _ = gainRuns.initialize(from: runs)
        inverseBinCount = .allocate(capacity: layout.inverseBinCount.count); _ = inverseBinCount.initialize(from: layout.inverseBinCount)
        fineLevels.prepare(bandCount: layout.finelyAnalysedBandCount, filterbankSize: n, hopSize: r, sampleRate: format.sampleRate)
        hopSeconds = Double(r) / format.sampleRate
        compressor.prepare(bandCount: bands, hopSeconds: hopSeconds, inputFullScaleSPL: calibration.inputFullScaleSPL)
        noiseReducer.prepare(bandCount: bands, hopSeconds: hopSeconds)
        limiter.prepare(hopSize: r, sampleRate: format.sampleRate)
        feedbackCanceller.prepare(hopSize: r)
        howlDetector.prepare(layout: layout, binCount: filterbank.binCount, hopSeconds: hopSeconds)
        guardedInput = .allocate(capacity: r); guardedInput.initialize(repeating: 0)
        countsDamagedInput = format.inputChannels == 2 || ear == .left
        for buffer in [\EarProcessor.bandPower, \.levelSPL, \.compressionGain, \.noiseGain, \.bandGain, \.bandDensity] {
            self[keyPath: buffer] = .allocate(capacity: bands)
            self[keyPath: buffer].initialize(repeating: 0)
        }
        hopOutput = .allocate(capacity: r); hopOutput.initialize(repeating: 0)
        // Σ|X_k|² over a band → mean-square power of the input: 2/(N·Σw²) with Σw² = N/2 for √Hann.
        powerScale = 4 / Float(n * n)
        // A bin's |X|² whose level (as the compressor reads band power) is the howling floor.
        minimumHowlBinPower = powf(10, (HowlDetector.minimumLevelSPL - Float(calibration.inputFullScaleSPL)) / 10) / (2 * powerScale)
        muteStep = Float(hopSeconds / 0.01)
        muteFactor = 1
        rampFraction = 0
        isPrepared = true
    }

    func release() {
        filterbank.release(); fineLevels.release(); compressor.release(); noiseReducer.release(); limiter.release()
        feedbackCanceller.release(); howlDetector.release()
        for buffer in [bandPower, levelSPL, compressionGain, noiseGain, bandGain, bandDensity, hopOutput, guardedInput,
                       inverseBinCount] {
            buffer.deallocate()
        }
        binsOfBand.deallocate(); gainRuns.deallocate()
        binsOfBand = .init(start: nil, count: 0); gainRuns = .init(start: nil, count: 0)
        inverseBinCount = .init(start: nil, count: 0)
        guardedInput = .init(start: nil, count: 0)
        bandDensity = .init(start: nil, count: 0)
        bandPower = .init(start: nil, count: 0); levelSPL = .init(start: nil, count: 0)
        compressionGain = .init(start: nil, count: 0); noiseGain = .init(start: nil, count: 0)
        bandGain = .init(start: nil, count: 0); hopOutput = .init(start: nil, count: 0)
        isPrepared = false
    }

    deinit { release() }

    func restartGainRamp() { rampFraction = 0 }

    /// The feedback model's taps (tests and the debug view; not for the audio thread).
    var feedbackModelTaps: [Float] { feedbackCanceller.modelTaps }

    /// Processes `frames` samples (a multiple of the hop) read from `input` every `inputStride`
    /// floats, writing every `outputStride` floats of `output`.
    func process(_ input: UnsafePointer<Float>, inputStride: Int, _ output: UnsafeMutablePointer<Float>, outputStride: Int,
                 frames: Int, configuration: RuntimeConfiguration, monitors: HearingMonitors) {
        let r = filterbank.hopSize
        var start = 0
        while start + r <= frames {
            processHop(input + start * inputStride, inputStride: inputStride, configuration: configuration, monitors: monitors)
            for i in 0..<r { output[(start + i) * outputStride] = hopOutput[i] }
            start += r
        }
    }

    @inline(__always)
    private func processHop(_ input: UnsafePointer<Float>, inputStride: Int, configuration c: RuntimeConfiguration,
                            monitors: HearingMonitors) {
        let feedback = c.settings.feedbackManagement
        let damaged: Int
        if feedback.contains(.cancellation) {
            var count = 0
            for i in 0..<filterbank.hopSize {
                let admitted = InputGuard.admit(input[i * inputStride])
                guardedInput[i] = admitted.sample
                if admitted.damaged { count += 1 }
            }
            damaged = count
            feedbackCanceller.cancel(guardedInput.baseAddress!, adapting: true)
            filterbank.analyse(feedbackCanceller.corrected.baseAddress!, stride: 1)
        } else {
            damaged = filterbank.analyse(input, stride: inputStride)
        }
        if damaged > 0, countsDamagedInput { monitors.addDamagedInputSamples(damaged) }
        let spectrum = filterbank.spectrum
        if feedback.contains(.howlSuppression) {
            howlDetector.process(spectrum, minimumBinPower: minimumHowlBinPower)
        }
        let bands = BandLayout.bandCount
        // Each band's bins in order, summed in a register (the same sums, in the same order, as
        // adding every bin into its band's slot, without a store and reload per bin).
        for b in 0..<bands {
            var sum: Float = 0
            for k in binsOfBand[b] { sum += spectrum[k].r * spectrum[k].r + spectrum[k].i * spectrum[k].i }
            bandPower[b] = sum * powerScale
        }
        fineLevels.analyse(filterbank.latestHop, count: filterbank.hopSize, into: bandPower.baseAddress!)

        let settings = c.settings
        let earRuntime = c.ears[ear.channelIndex]
        let inputFullScale = Float(settings.calibration.inputFullScaleSPL)
        compressor.process(bandPower: bandPower.baseAddress!, targets: earRuntime.targets,
                           attackSeconds: c.adjustments.attackSeconds, releaseSeconds: c.adjustments.releaseSeconds,
                           inputFullScaleSPL: inputFullScale, levelsSPL: levelSPL.baseAddress!,
                           gainsDecibels: compressionGain.baseAddress!)
        let noiseAttenuation = settings.bypass.contains(.noiseReduction)
            ? 0 : Float(c.adjustments.noiseReductionMaximumAttenuationDecibels)
        noiseReducer.process(bandPower: bandPower.baseAddress!, maximumAttenuationDecibels: noiseAttenuation,
                             gainsDecibels: noiseGain.baseAddress!)

        let bypassCompression = settings.bypass.contains(.compression)
        for b in 0..<bands {
            var g = bypassCompression ? 0 : compressionGain[b] * rampFraction
            g += earRuntime.offsetDecibels[b] + noiseGain[b]
            let howlReduction = feedback.contains(.howlSuppression) ? howlDetector.reductionDecibels[b] : 0
            g -= howlReduction
            monitors.store(howlReduction, ear, .howlGainReductionDecibels, band: b)
            // Band maximum output: output level = input level + gain must stay below the MPO.
            g = min(g, Float(earRuntime.targets[b].maximumOutputSPL) - levelSPL[b])
            bandGain[b] = g
            monitors.store(levelSPL[b], ear, .inputLevelSPL, band: b)
            monitors.store(g, ear, .appliedGainDecibels, band: b)
            let noise = noiseReducer.noiseEstimate(band: b)
            monitors.store(compressor.levelSPL(power: noise, inputFullScaleSPL: inputFullScale), ear, .noiseLevelSPL, band: b)
        }

        // Mute and unmute as a linear 10 ms fade: click-free, and exactly silent at its end.
        muteFactor = settings.muted ? max(0, muteFactor - muteStep) : min(1, muteFactor + muteStep)
        let calibrationOffset = c.calibrationOffsetDecibels
        let decibelsToLog: Float = logf(10) / 20
        // Each bin between two band centres takes a mix of their gains, weighted by distance in
        // log frequency *and* by the bands' power per bin: a bin next to a loud band gets that
        // band's gain, so a tone is amplified by its own band's compression rule and not by the
        // larger soft-level gain of an empty neighbour (with equal densities this is plain
        // log-frequency interpolation).
        let inverseBinCount = self.inverseBinCount
        for b in 0..<bands { bandDensity[b] = compressor.smoothedPower(band: b) * inverseBinCount[b] + 1e-20 }
        for run in gainRuns {
            let i = run.lowerBand, w = run.upperWeight
            let a = (1 - w) * bandDensity[i], u = w * bandDensity[i + 1]
            let gainDecibels = (a * bandGain[i] + u * bandGain[i + 1]) / (a + u) + calibrationOffset
            let factor = expf(gainDecibels * decibelsToLog) * muteFactor
            for k in run.bins {
                spectrum[k].r *= factor
                spectrum[k].i *= factor
            }
        }
        filterbank.synthesise(into: hopOutput.baseAddress!)
        limiter.process(hopOutput.baseAddress!, count: hopOutput.count, peakCap: c.limiterPeakAmplitude,
                        bypassed: settings.bypass.contains(.limiter))
        monitors.storeLimiterGain(limiter.currentGain, ear)
        // The canceller's reference is what the earphone really plays: after the limiter.
        feedbackCanceller.played(hopOutput.baseAddress!)

        if rampFraction < 1 {
            let ramp = settings.startupRampSeconds
            rampFraction = ramp > 0 ? min(1, rampFraction + Float(hopSeconds / ramp)) : 1
        }
    }
}
