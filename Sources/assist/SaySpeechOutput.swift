import ArgumentParser
import AssistCore
import Foundation
import Media
import SessionControl
import Speech

/// The options every command that speaks takes.
struct SpeechOutputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Render the speech into this WAV file (stereo, 22 050 Hz) instead of playing it.", valueName: "file.wav"))
    var speakTo: String?

    @Flag(help: "Don't speak; only print.")
    var quiet = false

    @Option(help: ArgumentHelp("Play on this audio device: part of its name, or its index as `assist devices` lists it (default: the system's default output).", valueName: "name|index"))
    var audioDevice: String?

    @Option(help: "The voice: natural (Piper's joe: a natural English voice, slower to start; no pitch control), fast (espeak-ng English), or an espeak-ng language such as en, en-us, fr-fr (`assist say --list-voices` lists them with their licences; default: the speech.voice setting).")
    var voice: String?

    @Option(help: "Speaking rate in words per minute, 80–500 (default: the speech.rateWordsPerMinute setting, 175).")
    var rate: Int?

    @Option(help: "Voice pitch, 0–100, 50 is the voice's normal pitch (default: the speech.pitch setting).")
    var pitch: Int?

    @Option(help: "Speech volume in percent, 10–100 (default: the speech.volumePercent setting, 70).")
    var volume: Int?

    @Flag(help: "The same sound in both ears (no placement by direction), for listening with one ear or one earphone.")
    var mono = false

    func validate() throws {
        if quiet && speakTo != nil { throw ValidationError("Use either --quiet or --speak-to, not both.") }
        if quiet && audioDevice != nil { throw ValidationError("--audio-device plays speech; it does not go with --quiet.") }
        if speakTo != nil && audioDevice != nil { throw ValidationError("Use either --speak-to (render a file) or --audio-device (play), not both.") }
    }

    var choice: SpeechChoice {
        SpeechChoice(speakTo: speakTo, quiet: quiet, audioDevice: audioDevice, voice: voiceSettings, mono: mono)
    }

    /// The voice: what the command line gives, else the user's stored speech settings, else the defaults.
    var voiceSettings: SpeechVoiceSettings {
        StoredVoiceSpeech.voice(voice, wordsPerMinute: rate, pitch: pitch, volumePercent: volume)
    }
}

extension Earcon: ExpressibleByArgument {}
