#if canImport(Glibc)
import Glibc
#endif

/// The explicit conversions between the three level scales the hearing assistant uses.
///
/// - **dB HL** (hearing level): an audiogram's scale, 0 dB HL is the average normal threshold at
///   each frequency. dB SPL = dB HL + RETSPL(f).
/// - **dB SPL** (sound pressure level re 20 µPa): the scale of fitting targets, compression knees
///   and the maximum output.
/// - **dBFS** (decibels re full scale): the samples' scale; 0 dBFS is the RMS of a full-scale sine
///   (peak 1.0), so a sine of peak amplitude `a` has `20·log10(a)` dBFS.
///
/// The link between dBFS and dB SPL is the calibration: `inputFullScaleSPL` is the sound level at
/// the microphone that produces a full-scale sine, `outputFullScaleSPL` the level the headphone
/// produces at the ear for a full-scale sine. Both are settings because they depend on the
/// hardware; they are measured once with a sound level meter (or a coupler for the headphone).
public struct LevelCalibration: Sendable, Equatable, Codable {
    public var inputFullScaleSPL: Double
    public var outputFullScaleSPL: Double

    /// 110 dB SPL at full scale for both: typical of a headset microphone and of closed
    /// headphones at full volume, and it leaves room above the 100 dB SPL default output cap.
    public init(inputFullScaleSPL: Double = 110, outputFullScaleSPL: Double = 110) {
        self.inputFullScaleSPL = inputFullScaleSPL
        self.outputFullScaleSPL = outputFullScaleSPL
    }

    public static let allowedFullScaleSPL: ClosedRange<Double> = 70...140

    public func validated() throws -> LevelCalibration {
        for v in [inputFullScaleSPL, outputFullScaleSPL] where !(v.isFinite && Self.allowedFullScaleSPL.contains(v)) {
            throw HearingError.calibrationOutOfRange(v)
        }
        return self
    }

    public func inputSPL(fromDBFS dbfs: Double) -> Double { dbfs + inputFullScaleSPL }
    public func inputDBFS(fromSPL spl: Double) -> Double { spl - inputFullScaleSPL }
    public func outputSPL(fromDBFS dbfs: Double) -> Double { dbfs + outputFullScaleSPL }
    public func outputDBFS(fromSPL spl: Double) -> Double { spl - outputFullScaleSPL }

    /// Peak amplitude of a sine at `spl` dB SPL at the input.
    public func inputSineAmplitude(spl: Double) -> Double { pow(10, inputDBFS(fromSPL: spl) / 20) }

    /// The linear factor from input samples to output samples that gives `insertionGain` dB:
    /// insertion gain is output SPL minus input SPL, so the two calibrations enter here.
    public func linearFactor(insertionGainDecibels gain: Double) -> Double {
        pow(10, (gain + inputFullScaleSPL - outputFullScaleSPL) / 20)
    }

    /// Reference equivalent threshold SPL (RETSPL) of the TDH-39 supra-aural audiometric
    /// earphone, ANSI S3.6-2010 Table 5 / ISO 389-1 (dB SPL in an NBS 9-A coupler at 0 dB HL).
    public static let retsplTDH39: [Double: Double] = [
        125: 45.0, 250: 25.5, 500: 11.5, 750: 8.0, 1000: 7.0, 1500: 6.5,
        2000: 9.0, 3000: 10.0, 4000: 9.5, 6000: 15.5, 8000: 13.0,
    ]

    /// dB HL → dB SPL at `frequencyHz` (RETSPL interpolated in log frequency between table rows).
    public static func spl(fromHL hl: Double, frequencyHz: Double) -> Double {
        hl + EarAudiogram.interpolate(retsplTDH39, at: frequencyHz)!
    }

    public static func hl(fromSPL spl: Double, frequencyHz: Double) -> Double {
        spl - EarAudiogram.interpolate(retsplTDH39, at: frequencyHz)!
    }
}

/// Power and decibel conversions, in one place.
@inlinable func decibels(power: Double) -> Double { 10 * log10(max(power, 1e-30)) }
@inlinable func decibels(amplitude: Double) -> Double { 20 * log10(max(amplitude, 1e-30)) }
@inlinable func amplitude(decibels: Double) -> Double { pow(10, decibels / 20) }
