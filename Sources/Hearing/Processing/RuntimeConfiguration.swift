import Foundation

/// Stages that can be switched off while running. Switching is click-free: gains change at
/// most once per hop and the synthesis window cross-fades consecutive frames.
public struct ProcessingBypass: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The prescription's gain and compression (insertion gain becomes 0 dB; volume and
    /// program offsets still apply, and so does the maximum output).
    public static let compression = ProcessingBypass(rawValue: 1)
    public static let noiseReduction = ProcessingBypass(rawValue: 2)
    /// The broadband output limiter's smooth gain reduction. A hard clamp at the fitted maximum
    /// output stays: no setting lets the output past it.
    public static let limiter = ProcessingBypass(rawValue: 4)
}

/// Defences against acoustic feedback (the microphone hearing the earphone). Off unless asked
/// for: the canceller partly cancels long steady tones as well (see `FeedbackCanceller`), which
/// a closed fitting without feedback does not need to risk.
public struct FeedbackManagement: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Adaptive feedback cancellation: subtracts a model of the path from earphone to microphone.
    public static let cancellation = FeedbackManagement(rawValue: 1)
    /// Howling detection: lowers the gain of a band that rings, as a last resort.
    public static let howlSuppression = FeedbackManagement(rawValue: 2)
    public static let all: FeedbackManagement = [.cancellation, .howlSuppression]
}

/// Everything the user or fitter can set, as a plain value. Validated into a
/// `RuntimeConfiguration` that the audio thread picks up whole.
public struct HearingAidSettings: Sendable, Equatable {
    public var prescription: Prescription
    public var calibration: LevelCalibration
    public var program: ListeningProgram
    /// User volume in steps of `volumeStepDecibels`, kept within `volumeRangeDecibels`.
    public var volumeSteps: Int
    public var volumeStepDecibels: Double
    /// The fitter's limits on user volume (dB relative to the prescription).
    public var volumeRangeDecibels: ClosedRange<Double>
    public var muted: Bool
    public var bypass: ProcessingBypass
    /// After a new prescription the gain rises from 0 dB to the target over this time, so
    /// the first sound is never a surprise.
    public var startupRampSeconds: Double
    public var feedbackManagement: FeedbackManagement

    public init(prescription: Prescription, calibration: LevelCalibration = LevelCalibration(),
                program: ListeningProgram = .quiet, volumeSteps: Int = 0, volumeStepDecibels: Double = 2,
                volumeRangeDecibels: ClosedRange<Double> = -12...6, muted: Bool = false,
                bypass: ProcessingBypass = [], startupRampSeconds: Double = 2,
                feedbackManagement: FeedbackManagement = []) {
        self.prescription = prescription
        self.calibration = calibration
        self.program = program
        self.volumeSteps = volumeSteps
        self.volumeStepDecibels = volumeStepDecibels
        self.volumeRangeDecibels = volumeRangeDecibels
        self.muted = muted
        self.bypass = bypass
        self.startupRampSeconds = startupRampSeconds
        self.feedbackManagement = feedbackManagement
    }

    /// The volume offset in dB, clamped to the fitter's range.
    public var volumeDecibels: Double {
        min(max(Double(volumeSteps) * volumeStepDecibels, volumeRangeDecibels.lowerBound), volumeRangeDecibels.upperBound)
    }

    public var maximumVolumeSteps: Int { Int((volumeRangeDecibels.upperBound / volumeStepDecibels).rounded(.down)) }
    public var minimumVolumeSteps: Int { Int((volumeRangeDecibels.lowerBound / volumeStepDecibels).rounded(.up)) }
}

/// One ear's per-band parameters, in the band order of `BandLayout`.
struct EarRuntime: Sendable {
    let targets: [BandTarget]
    /// Program offset plus user volume, dB, per band.
    let offsetDecibels: [Float]
}

/// The validated, immutable form of `HearingAidSettings` that `process` reads. A change of any
/// setting builds a new one; the audio thread swaps it in whole at the start of its next block.
public final class RuntimeConfiguration: Sendable {
    let settings: HearingAidSettings
    let ears: [EarRuntime]
    let adjustments: ProgramAdjustments
    /// Increases with each new prescription; a change restarts the gentle gain ramp.
    let prescriptionGeneration: Int
    /// Broadband output cap as a peak amplitude at the output (full scale = 1), never above 1.
    let limiterPeakAmplitude: Float
    /// The linear factor from input to output samples that corresponds to 0 dB insertion gain.
    let calibrationOffsetDecibels: Float

    init(settings: HearingAidSettings, prescriptionGeneration: Int) throws {
        _ = try settings.calibration.validated()
        self.settings = settings
        self.prescriptionGeneration = prescriptionGeneration
        adjustments = settings.program.adjustments
        let volume = settings.volumeDecibels
        ears = Ear.allCases.map { ear in
            let prescription = settings.prescription[ear]
            let targets = BandLayout.centreFrequenciesHz.map { f in prescription.band(atHz: f)! }
            let offsets = BandLayout.centreFrequenciesHz.map { f in Float(settings.program.adjustments.gainOffset(atHz: f) + volume) }
            return EarRuntime(targets: targets, offsetDecibels: offsets)
        }
        let cap = min(settings.prescription.options.maximumOutputSPL, FittingOptions.absoluteMaximumOutputSPL)
        // A sine at the cap has peak amplitude 10^((cap − fullScale)/20); never above full scale.
        limiterPeakAmplitude = Float(min(0.999, amplitude(decibels: settings.calibration.outputDBFS(fromSPL: cap))))
        calibrationOffsetDecibels = Float(settings.calibration.inputFullScaleSPL - settings.calibration.outputFullScaleSPL)
    }
}
