import ArgumentParser
import AssistCore
import Foundation
import Media
import Speech

/// The options every command that speaks takes.
struct SpeechOutputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Render the speech into this WAV file (stereo, 22 050 Hz) instead of playing it.", valueName: "file.wav"))
    var speakTo: String?

    @Flag(help: "Don't speak; only print.")
    var quiet = false

    @Option(help: ArgumentHelp("Play on this audio device: part of its name, or its index as `assist devices` lists it (default: the system's default output).", valueName: "name|index"))
    var audioDevice: String?

    @Option(help: "Voice or language, e.g. en, en-us, fr-fr (`assist say --list-voices` lists them; default: the speech.voice setting).")
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

    /// The voice: what the command line gives, else the user's stored speech settings, else the defaults.
    var voiceSettings: SpeechVoiceSettings {
        let stored = StoredVoiceSpeech.voice(from: StoredVoiceSpeech.storedSettings())
        return SpeechVoiceSettings(voice: voice ?? stored.voice, wordsPerMinute: rate ?? stored.wordsPerMinute,
                                   pitch: pitch ?? stored.pitch, volumePercent: volume ?? stored.volumePercent)
    }
}

/// Where a command's speech goes: a WAV file, the sound card, or nowhere (--quiet). Owns the
/// voice, the utterance queue and the feedback for one command run.
final class SpokenOutput {
    enum Destination { case file(WAVFileOutput), speaker(SpeakerOutput), none }
    let feedback: Feedback?
    private let destination: Destination

    /// Throws the voice's error (unknown voice, rate out of range) or the file's; a missing audio
    /// device is thrown as `AudioDeviceError` so each command decides how to carry on.
    /// `maximumSpeechSeconds`: the queue's limit per message; announcements keep the 3 s default,
    /// reports the user asked for ("what did you detect recently?") are read whole.
    init(_ options: SpeechOutputOptions, loudEarcons: Set<Earcon> = [], vibration: (any VibrationOutput)? = nil,
         maximumSpeechSeconds: Double = 3) throws {
        guard !options.quiet else {
            feedback = nil
            destination = .none
            return
        }
        let voice = try SpeechSynthesizer(settings: options.voiceSettings)
        let settings = UtteranceQueueSettings(maximumSpeechSeconds: maximumSpeechSeconds, spatialAudio: !options.mono,
                                              loudEarcons: loudEarcons)
        if let speakTo = options.speakTo {
            let queue = UtteranceQueue(voice: voice, settings: settings)
            let file = try WAVFileOutput(url: URL(fileURLWithPath: speakTo), sampleRateHz: queue.sampleRateHz)
            feedback = Feedback(queue: queue, vibration: vibration)
            destination = .file(file)
        } else {
            let card = try SoundCardPlayback(deviceName: options.audioDevice)
            let queue = UtteranceQueue(voice: voice, sampleRateHz: card.preferredSampleRateHz(voiceRateHz: Double(voice.sampleRate)),
                                       settings: settings)
            let feedback = Feedback(queue: queue, vibration: vibration)
            let speaker = SpeakerOutput(queue: queue, device: card, feedback: feedback)
            try speaker.start()
            speaker.startMonitoring()
            self.feedback = feedback
            destination = .speaker(speaker)
        }
    }

    /// There is no sound to say that something went wrong, and the user may not see the screen:
    /// an alert vibration, where a vibration device exists, goes with the sentence on stderr.
    static func alertWithoutSound(_ vibration: (any VibrationOutput)?) {
        try? (vibration ?? ForceFeedbackVibration.findDevice())?.vibrate(.alert)
    }

    /// Queues an utterance; nothing happens under --quiet.
    @discardableResult
    func say(_ utterance: Utterance, vibrating pattern: VibrationPattern? = nil) -> EnqueueOutcome? {
        feedback?.say(utterance, vibrating: pattern)
    }

    /// Plays (or renders) everything queued, and returns when it has been heard (or written).
    func finish() throws {
        switch destination {
        case .file(let file):
            // Large blocks: nothing is enqueued while a file renders, so timing needs no finer grain.
            try feedback?.queue.renderUntilIdle(to: file, blockFrames: 4096)
            file.close()
        case .speaker(let speaker):
            speaker.waitUntilPlayed()
            speaker.stopMonitoring()
        case .none:
            break
        }
    }
}

extension Earcon: ExpressibleByArgument {}

extension SpokenOutput {
    /// Speaks a report the user asked for, in full; with no audio device the report is still
    /// printed by the caller and standard error says once why it was not heard.
    static func speakReport(_ sentence: String, options: SpeechOutputOptions) throws {
        guard !options.quiet else { return }
        let output: SpokenOutput
        do {
            output = try SpokenOutput(options, maximumSpeechSeconds: 600)
        } catch let error as AudioDeviceError where options.audioDevice == nil {
            FileHandle.standardError.write(Data("The report could not be spoken: \(error.userMessage) Use --speak-to FILE.wav to render it, or --quiet.\n".utf8))
            return
        } catch {
            throw CommandFailure(userMessage(for: error), exitCode: 1)
        }
        output.say(Utterance(sentence, priority: .answer, contentKey: "report"))
        do { try output.finish() } catch { throw CommandFailure(userMessage(for: error), exitCode: 1) }
    }
}

extension SpokenOutput {
    /// Where a description of pictures (`see`, `read`) is spoken; nil when it is not (--quiet, --json,
    /// or no audio device, which is said once on standard error: the printed description must not fail for it).
    static func forDescription(_ speech: SpeechOutputOptions, json: Bool) throws -> SpokenOutput? {
        if speech.quiet || (json && speech.speakTo == nil && speech.audioDevice == nil) { return nil }
        do {
            return try SpokenOutput(speech)
        } catch let error as AudioDeviceError where speech.audioDevice == nil {
            SpokenOutput.alertWithoutSound(nil)
            let sentence = error.userMessage.dropLast()
            let reason = error == .noAudioDevice || error == .noOutputDevice
                ? "no audio device was found" : sentence.prefix(1).lowercased() + sentence.dropFirst()
            FileHandle.standardError.write(Data("The description could not be spoken because \(reason); use --speak-to FILE.wav to render it, or --quiet.\n".utf8))
            return nil
        } catch let error as AudioFileError {
            throw CommandFailure(error.userMessage, exitCode: 1)
        } catch {
            throw CommandFailure(userMessage(for: error), exitCode: 2)
        }
    }
}
