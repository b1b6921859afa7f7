import Foundation

/// Where an utterance starts and ends, from the speech detector's probabilities, one per 32 ms
/// window: it opens on a window at `startProbability` or above, and closes once the probability
/// has stayed below `endProbability` for `silenceWindows` (Silero's own hysteresis, 0.5 / 0.35).
/// What it opened on counts as speech only with `minimumSpeechWindows` of speech in it (a click,
/// a door, is shorter than the shortest word).
///
/// Among other talkers (babble) Silero hears the background as speech too, so its probability
/// alone keeps a command open until they pause: 1.1 s after the command. With
/// `followsForegroundLevel` (off: see there) each window's level is also weighed against the background's (the mean power of what
/// is heard while no utterance is open, which other talkers are part of): while an utterance is
/// open, a window no louder than the background plus `backgroundMarginDecibels` counts as
/// silence whatever the detector says, and nothing opens on a window that quiet. Only when the
/// voice stands clear of the background by `foregroundContrastDecibels` (a voice as loud as the
/// crowd cannot be told from it by level), and not in a quiet room (a background more than
/// `quietRoomContrastDecibels` below the voice), where Silero's probability falls as soon as the
/// voice stops and the silence wait was measured with its lag: there the level would shorten
/// every pause by that lag and cut "um, | …" in two. Pure logic, no audio: tested on its own.
public struct SpeechEndpointer: Sendable, Equatable {
    public var startProbability: Float = 0.5
    public var endProbability: Float = 0.35
    /// 0.35 s of silence ends a command: long enough for the pause inside "stop … detecting" and
    /// after "um," (0.32 s cut "uh, | start recognising …" in two for espeak-ng en-gb, 0.29 s cut
    /// two of espeak-ng en-us's "um, …" lines; 0.35 s cut none of the 14 development lines with
    /// a comma in four voices, nor did 0.38 s the whole set in three), short enough that the
    /// action follows within the 500 ms the issue asks: Silero notices the silence about 2
    /// windows late, so the end is declared about 420 ms after the speech (454 ms at 0.38 s).
    /// Measured on `bench/commands/spoken-dev.txt` only (BENCHMARKS.md, "Issue 35
    /// (twenty-third session)").
    public var silenceWindows = 11
    /// 0.13 s of speech at least.
    public var minimumSpeechWindows = 4
    /// No command is this long (10 s): an utterance still open is closed and transcribed.
    public var maximumWindows = 312
    /// Whether the level is weighed against the background's. Off: Silero's probability alone.
    /// Tried in the twenty-fourth session and left off: on the development set at 10 dB SNR it
    /// declared the end sooner (babble 800 against 1,114 ms median, white 270 against 461 ms) but
    /// cut 69 of 164 babble trials in two and lowered the right commands (babble 52 against 62 of
    /// 120, white 43 against 52): at +3 dB the quieter syllables of a voice only 10 dB above the
    /// background count as silence (BENCHMARKS.md, "Issue 35 (twenty-fourth session)"). The
    /// benchmark's `neural-level-end` turns it on.
    public var followsForegroundLevel = false
    /// A window at most this much louder than the background's mean is the background.
    public var backgroundMarginDecibels = 3.0
    /// The voice's mean level (its speech windows) must be this far above the background's for
    /// the level to be weighed at all.
    public var foregroundContrastDecibels = 6.0
    /// A background this far below the voice is a quiet room: the level is not weighed.
    public var quietRoomContrastDecibels = 30.0
    /// Windows the background's mean is taken over (about 2 s).
    static let backgroundWindows = 64.0

    public enum Event: Sendable, Equatable {
        /// Speech started in this window.
        case started
        /// The utterance ended `trailingSilenceWindows` windows ago (those are silence): its
        /// windows are `windows`, of which `speechWindows` were speech.
        case ended(windows: Int, speechWindows: Int, trailingSilenceWindows: Int)
        /// What opened was too short to be speech (a click): forget it.
        case discarded(windows: Int)
    }

    public private(set) var isOpen = false
    private var windows = 0
    private var speechWindows = 0
    /// Windows of silence since the last speech, while open.
    public private(set) var silentRun = 0
    /// Mean power (full scale 1) of the windows heard while no utterance was open; kept across
    /// `reset()`, as the room is the same room. Nil before any.
    public private(set) var backgroundPower: Double?
    /// Total power of the open utterance's speech windows, and how many.
    private var foregroundPower = 0.0
    private var foregroundWindows = 0

    public init() {}

    /// Whether a window of mean power `power` is no louder than the background (see the type's
    /// comment); false when the level is not weighed.
    func isBackgroundLevel(_ power: Double) -> Bool {
        guard followsForegroundLevel, let background = backgroundPower, foregroundWindows > 0 else { return false }
        let floor = max(background, 1e-10)  // digital silence
        let foreground = foregroundPower / Double(foregroundWindows)
        let contrast = foreground / floor
        guard contrast >= pow(10, foregroundContrastDecibels / 10), contrast < pow(10, quietRoomContrastDecibels / 10) else { return false }
        return power <= floor * pow(10, backgroundMarginDecibels / 10)
    }

    /// One window: Silero's speech probability and, optionally, the window's mean power (mean
    /// square, full scale 1); without it the level is not weighed.
    public mutating func add(probability: Float, power: Double? = nil) -> Event? {
        if !isOpen {
            let quietAsBackground: Bool
            if let power, followsForegroundLevel, let background = backgroundPower {
                quietAsBackground = power <= max(background, 1e-10) * pow(10, backgroundMarginDecibels / 10)
            } else {
                quietAsBackground = false
            }
            guard probability >= startProbability, !quietAsBackground else {
                if let power { backgroundPower = backgroundPower.map { $0 + (power - $0) / Self.backgroundWindows } ?? power }
                return nil
            }
            isOpen = true
            windows = 1
            speechWindows = 1
            silentRun = 0
            foregroundPower = power ?? 0
            foregroundWindows = power == nil ? 0 : 1
            return .started
        }
        windows += 1
        if probability < endProbability || power.map(isBackgroundLevel) == true {
            silentRun += 1
        } else {
            silentRun = 0
            if probability >= startProbability {
                speechWindows += 1
                if let power {
                    foregroundPower += power
                    foregroundWindows += 1
                }
            }
        }
        if silentRun >= silenceWindows || windows >= maximumWindows { return close() }
        return nil
    }

    /// The input ended (a file's end, push-to-talk released): closes an open utterance.
    public mutating func finish() -> Event? {
        isOpen ? close() : nil
    }

    private mutating func close() -> Event {
        isOpen = false
        defer { windows = 0; speechWindows = 0; silentRun = 0; foregroundPower = 0; foregroundWindows = 0 }
        if speechWindows < minimumSpeechWindows { return .discarded(windows: windows) }
        return .ended(windows: windows, speechWindows: speechWindows, trailingSilenceWindows: silentRun)
    }

    /// Forgets the utterance, not the background.
    public mutating func reset() {
        isOpen = false
        windows = 0
        speechWindows = 0
        silentRun = 0
        foregroundPower = 0
        foregroundWindows = 0
    }
}
