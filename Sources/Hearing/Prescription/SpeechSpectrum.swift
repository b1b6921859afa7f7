import Foundation

/// The standard speech spectrum for normal vocal effort, ANSI S3.5-1997 (Speech Intelligibility
/// Index) Table 3: spectrum level (dB SPL per Hz) in one-third-octave bands 160 Hz–8 kHz,
/// 62.35 dB SPL overall. Used to shape test noise like speech and to relate a chain band's level
/// to the overall level of the speech that would produce it.
public enum SpeechSpectrum {
    public static let thirdOctaveCentresHz: [Double] = [
        160, 200, 250, 315, 400, 500, 630, 800, 1000, 1250, 1600, 2000, 2500, 3150, 4000, 5000, 6300, 8000,
    ]
    public static let spectrumLevelsNormal: [Double] = [
        32.41, 34.48, 34.75, 33.98, 34.59, 34.27, 32.06, 28.30, 25.01, 23.00, 20.15, 17.32, 13.18, 11.55, 9.33, 5.31, 2.59, 1.13,
    ]

    /// Band level (dB SPL) of each one-third-octave band: spectrum level + 10·log10(bandwidth),
    /// bandwidth = f·(2^(1/6) − 2^(−1/6)).
    static var thirdOctaveBandLevels: [Double] {
        zip(thirdOctaveCentresHz, spectrumLevelsNormal).map { f, level in level + 10 * log10(f * (pow(2, 1.0 / 6) - pow(2, -1.0 / 6))) }
    }

    /// Overall level of the standard spectrum (≈ 62.35 dB SPL).
    static var overallLevel: Double { 10 * log10(thirdOctaveBandLevels.reduce(0) { $0 + pow(10, $1 / 10) }) }

    /// Spectrum level (dB/Hz) at any frequency: interpolated in log frequency, held at the ends.
    static func spectrumLevel(atHz f: Double) -> Double {
        EarAudiogram.interpolate(Dictionary(uniqueKeysWithValues: zip(thirdOctaveCentresHz, spectrumLevelsNormal)), at: f)!
    }

    /// For each chain band: overall speech level minus the band's level, i.e. what to add to a
    /// measured band level to get the overall level of speech that would give it.
    public static let chainBandOffsetsDecibels: [Double] = {
        let edges = BandLayout.edgesHz
        let bands = thirdOctaveBandLevels
        return (0..<BandLayout.bandCount).map { b in
            let power = zip(thirdOctaveCentresHz, bands).filter { $0.0 >= edges[b] && $0.0 < edges[b + 1] }
                .reduce(0.0) { $0 + pow(10, $1.1 / 10) }
            return overallLevel - 10 * log10(max(power, 1e-30))
        }
    }()
}
