import AssistCore
import Foundation
import Media
import Speech

/// Where a live session's speech goes: rendered into a WAV on the input's clock, played as it is
/// made on the sound card — or, when silent or without an audio device, into a paced nothing,
/// so the timings are still those of a real device.
public final class SessionSpeechRoute {
    public enum Destination: Sendable, Equatable {
        /// Rendered into this WAV file, aligned with input time (offline).
        case file(URL)
        /// Played on this device (nil: the default one); without one, guidance is printed and
        /// the user is told it cannot be heard.
        case device(name: String?)
        /// Played into nothing at the pace of a device (`--quiet`, `--json` without a device).
        case silent
    }

    public let feedback: Feedback
    public let clock: SessionConfiguration.Clock
    private let file: WAVFileOutput?
    private let speaker: SpeakerOutput?

    /// Throws the voice's error or the file's; a missing audio device only when one was named.
    /// `warn` tells the user, in one sentence, what does not work (a missing default device).
    public init(_ destination: Destination, voice settings: SpeechVoiceSettings, spatialAudio: Bool,
                frameCostSeconds: Double?, warn: @escaping @Sendable (String) -> Void) throws {
        let queueSettings = UtteranceQueueSettings(spatialAudio: spatialAudio)
        // The natural voice that cannot start gives way to the fast one, said once (printed and spoken).
        func fallbackNotice(_ chosen: VoiceCatalog.ChosenVoice, into queue: UtteranceQueue) {
            guard let notice = chosen.fallbackNotice else { return }
            warn(notice)
            queue.enqueue(Utterance(notice, priority: .status, contentKey: "natural-voice-unavailable"))
        }
        if case .file(let url) = destination {
            let chosen = try VoiceCatalog.start(settings)
            let queue = UtteranceQueue(voice: chosen.voice, settings: queueSettings)
            fallbackNotice(chosen, into: queue)
            let wav = try WAVFileOutput(url: url, sampleRateHz: queue.sampleRateHz)
            // Rendering a file vibrates nothing; the vibrations are listed in --json.
            feedback = Feedback(queue: queue, vibration: RecordingVibration())
            file = wav
            speaker = nil
            clock = .input(audio: wav, frameCostSeconds: frameCostSeconds)
            return
        }
        file = nil
        let silent = destination == .silent
        let chosen: VoiceCatalog.ChosenVoice? = silent ? try? VoiceCatalog.start(settings) : try VoiceCatalog.start(settings)
        let voice = chosen?.voice
        let vibration = ForceFeedbackVibration.findDevice()
        var device: any PlaybackDevice = PacedNullPlayback()
        var rate = Double(voice?.sampleRate ?? 22050)
        if case .device(let name) = destination {
            do {
                let card = try SoundCardPlayback(deviceName: name)
                rate = card.preferredSampleRateHz(voiceRateHz: rate)
                device = card
            } catch let error as AudioDeviceError where name == nil {
                try? vibration?.vibrate(.alert)
                warn("Guidance is printed but cannot be heard: \(error.userMessage) It can be written to a sound file instead; the help of assist see says how.")
            }
        }
        let queue = UtteranceQueue(voice: voice, sampleRateHz: rate, settings: queueSettings)
        if let chosen { fallbackNotice(chosen, into: queue) }
        // Without a voice (silent, espeak-ng missing) every utterance is a tone: nothing to report.
        var report = Feedback.standardError
        if voice == nil { report = { _ in } }
        feedback = Feedback(queue: queue, vibration: vibration, report: report)
        let output = SpeakerOutput(queue: queue, device: device, feedback: feedback)
        try output.start()
        output.startMonitoring()
        speaker = output
        // Known once the device runs.
        clock = .realTime(outputLatencySeconds: device.outputLatencySeconds)
    }

    /// Finishes the WAV file's header, or stops watching the device.
    public func close() {
        file?.close()
        speaker?.stopMonitoring()
    }
}
