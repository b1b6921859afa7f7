/// The ranges of the speech settings, defined once: the settings store, the spoken commands
/// ("volume up", "speak faster"), the command-line options and the voice itself all check these.
public enum SpeechLimits {
    /// 80–500 words per minute. espeak-ng's own rate tops out at 449 on its normal path; from 450
    /// libsonic (linked into Debian's libespeak-ng) speeds it up, which reaches 500.
    public static let rateWordsPerMinute = 80...500
    /// 10–100 %: never silent, so guidance cannot be turned down to nothing by mistake.
    public static let volumePercent = 10...100
    /// 0–100, 50 the voice's normal pitch.
    public static let pitch = 0...100
}
