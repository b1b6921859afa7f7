import AssistCore
import Foundation
import Media

/// Where a command's speech goes, as the user chose it (`--speak-to`, `--quiet`, `--audio-device`,
/// the voice options resolved against the stored voice, `--mono`).
public struct SpeechChoice: Sendable {
    /// Render into this WAV file instead of playing.
    public var speakTo: String?
    public var quiet: Bool
    /// Part of the device's name, or its index; nil: the system's default output.
    public var audioDevice: String?
    public var voice: SpeechVoiceSettings
    /// The same sound in both ears (no placement by direction).
    public var mono: Bool

    public init(speakTo: String? = nil, quiet: Bool = false, audioDevice: String? = nil,
                voice: SpeechVoiceSettings = SpeechVoiceSettings(), mono: Bool = false) {
        self.speakTo = speakTo
        self.quiet = quiet
        self.audioDevice = audioDevice
        self.voice = voice
        self.mono = mono
    }
}

/// Where a command's speech goes: a WAV file, the sound card, or nowhere (--quiet). Owns the
/// voice, the utterance queue and the feedback for one command run.
public final class SpokenOutput {
    enum Destination { case file(WAVFileOutput), speaker(SpeakerOutput), none }
    public let feedback: Feedback?
    private let destination: Destination

    /// Throws the voice's error (unknown voice, rate out of range) or the file's; a missing audio
    /// device is thrown as `AudioDeviceError` so each command decides how to carry on.
    /// `maximumSpeechSeconds`: the queue's limit per message; announcements keep the 3 s default,
    /// reports the user asked for ("what did you detect recently?") are read whole.
    public init(_ options: SpeechChoice, loudEarcons: Set<Earcon> = [], vibration: (any VibrationOutput)? = nil,
         maximumSpeechSeconds: Double = 3) throws {
        guard !options.quiet else {
            feedback = nil
            destination = .none
            return
        }
        let chosen = try VoiceCatalog.start(options.voice)
        let voice = chosen.voice
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
        // The natural voice could not start: said once, on standard error and aloud, before anything else.
        if let notice = chosen.fallbackNotice {
            FileHandle.standardError.write(Data((notice + "\n").utf8))
            feedback?.queue.enqueue(Utterance(notice, priority: .status, contentKey: "natural-voice-unavailable"))
        }
    }

    /// There is no sound to say that something went wrong, and the user may not see the screen:
    /// an alert vibration, where a vibration device exists, goes with the sentence on stderr.
    public static func alertWithoutSound(_ vibration: (any VibrationOutput)?) {
        try? (vibration ?? ForceFeedbackVibration.findDevice())?.vibrate(.alert)
    }

    /// Queues an utterance; nothing happens under --quiet.
    @discardableResult
    public func say(_ utterance: Utterance, vibrating pattern: VibrationPattern? = nil) -> EnqueueOutcome? {
        feedback?.say(utterance, vibrating: pattern)
    }

    /// Plays (or renders) everything queued, and returns when it has been heard (or written).
    public func finish() throws {
        switch destination {
        case .file(let file):
            // Large blocks: nothing is enqueued while a file renders, so timing needs no finer grain.
            try feedback?.queue.renderUntilIdle(to: file, blockFrames: 4096)
            try file.finish()
        case .speaker(let speaker):
            speaker.waitUntilPlayed()
            speaker.stopMonitoring()
        case .none:
            break
        }
    }
}

extension SpokenOutput: AnswerVoice {
    /// One answer, said as one utterance of `parts`.
    public func sayAnswer(_ parts: [String], key: String) {
        say(Utterance(parts, priority: .answer, contentKey: key))
    }
}
