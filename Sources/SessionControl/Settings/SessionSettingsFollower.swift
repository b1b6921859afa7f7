import Guidance
import LiveGuidance
import Perception
import Speech
import Storage
import Synchronization

/// Keeps a running session following the stored settings. Every change, whichever way it was
/// stored (a spoken or typed command, the control socket, the web form, `assist settings set` from
/// another program), becomes one `SessionSettingsUpdate` holding what changed since the settings
/// the session was last given, which the session applies at its next turn: the next frame is
/// analysed, and the next sentence worded, spoken and felt, with the new settings.
///
/// Only what changed is sent: a choice given on the command line for this run (`--voice`,
/// `--rate`, `--confidence`, `--battery-saver`) stays until the user changes that very setting.
public final class SessionSettingsFollower: Sendable {
    private struct Applied {
        var settings: Storage.Settings?
        /// The voice speaking now: the run's own choice, with each speech setting changed since applied over it.
        var voice: SpeechVoiceSettings
    }
    private let applied: Mutex<Applied>
    private let controls: SessionControls
    private let wording: DescriptionChoice
    private let depthModel: Bool
    private let camera: CameraChoice
    private let mono: Bool

    /// `stored`: the settings the session started with; `voice`: the voice it speaks with (the
    /// stored one under the command line's choices); `camera`: the run's camera choices;
    /// `mono`: the same sound in both ears whatever is stored (`--mono`).
    public init(stored: Storage.Settings?, voice: SpeechVoiceSettings, wording: DescriptionChoice, depthModel: Bool,
                camera: CameraChoice = CameraChoice(), mono: Bool = false, controls: SessionControls) {
        applied = Mutex(Applied(settings: stored, voice: voice))
        self.controls = controls
        self.wording = wording
        self.depthModel = depthModel
        self.camera = camera
        self.mono = mono
        // Vibration as the user set it, from the first pattern on (the rest is built from the
        // stored settings at start).
        if let stored { controls.update(SessionSettingsUpdate(haptics: HapticPreferences(stored: stored.feedback))) }
    }

    /// The voice the session speaks with now: the run's own choice under each speech setting changed since.
    public var voice: SpeechVoiceSettings { applied.withLock { $0.voice } }

    /// `settings` are now stored: the session is sent what changed (nothing when nothing did).
    /// Called by the command controller at once (at the moment of an `--at` line when rendering
    /// offline) and by the store's change notification, which then finds them applied already.
    public func follow(_ settings: Storage.Settings) {
        guard let recorded = record(settings) else { return }
        let (previous, voice) = recorded
        controls.update(wording.sessionUpdate(from: settings, previous: previous, voice: voice, depthModel: depthModel,
                                              camera: camera, mono: mono))
        // A mode stored by another program (`assist settings set scanning.mode navigate`, the web
        // form): the session switches to it as to a spoken mode command.
        if let previous, previous.scanning.mode != settings.scanning.mode, let mode = GuidanceMode(starting: settings.scanning.mode) {
            controls.send(.setMode(mode))
        }
    }

    /// `settings` were stored by a command the session was sent itself ("navigation mode",
    /// "battery saver on"): recorded, so that the store's notification does not send them again.
    public func note(_ settings: Storage.Settings) {
        _ = record(settings)
    }

    /// Records `settings` as applied; nil when they are the ones applied already, else the ones
    /// before and the voice to speak with now.
    private func record(_ settings: Storage.Settings) -> (Storage.Settings?, SpeechVoiceSettings?)? {
        applied.withLock { applied in
            guard settings != applied.settings else { return nil }
            let previous = applied.settings
            let voice = StoredVoiceSpeech.voice(applied.voice, changedFrom: previous?.speech, to: settings.speech)
            applied.settings = settings
            if let voice { applied.voice = voice }
            return (previous, voice)
        }
    }
}

extension StoredVoiceSpeech {
    /// `current` with each speech setting that changed from `previous` to `stored` taken from
    /// `stored`; nil when none did (the voice speaking now stays, not restarted).
    static func voice(_ current: SpeechVoiceSettings, changedFrom previous: SpeechSettings?,
                      to stored: SpeechSettings) -> SpeechVoiceSettings? {
        let before = previous ?? SpeechSettings()
        var voice = current
        if stored.voice != before.voice { voice.voice = stored.voice }
        if stored.rateWordsPerMinute != before.rateWordsPerMinute { voice.wordsPerMinute = stored.rateWordsPerMinute }
        if stored.pitch != before.pitch { voice.pitch = stored.pitch }
        if stored.volumePercent != before.volumePercent { voice.volumePercent = stored.volumePercent }
        return voice == current ? nil : voice
    }
}

extension HapticPreferences {
    /// The stored vibration choices.
    public init(stored: FeedbackSettings) {
        self.init(enabled: stored.hapticsEnabled, strength: stored.hapticStrength)
    }
}
