import AssistCore
import Foundation
import LiveGuidance
import Media
import Speech

/// Where a live session's speech goes: rendered into a WAV on the input's clock (--speak-to), or
/// played as it is made on the sound card — or, under --quiet / --json / without an audio
/// device, into a paced nothing, so the timings are still those of a real device.
final class LiveSpeech {
    let feedback: Feedback
    let clock: SessionConfiguration.Clock
    private let file: WAVFileOutput?
    private let speaker: SpeakerOutput?

    /// Throws the voice's error or the file's; a missing audio device only when one was named.
    init(_ options: SpeechOutputOptions, json: Bool, spatialAudio: Bool, frameCostSeconds: Double?) throws {
        let settings = UtteranceQueueSettings(spatialAudio: spatialAudio && !options.mono)
        if let speakTo = options.speakTo {
            let queue = UtteranceQueue(voice: try SpeechSynthesizer(settings: options.voiceSettings), settings: settings)
            let wav = try WAVFileOutput(url: URL(fileURLWithPath: speakTo), sampleRateHz: queue.sampleRateHz)
            // Rendering a file vibrates nothing; the vibrations are listed in --json.
            feedback = Feedback(queue: queue, vibration: RecordingVibration())
            file = wav
            speaker = nil
            clock = .input(audio: wav, frameCostSeconds: frameCostSeconds)
            return
        }
        file = nil
        let voice: SpeechSynthesizer? = options.quiet ? try? SpeechSynthesizer(settings: options.voiceSettings)
            : try SpeechSynthesizer(settings: options.voiceSettings)
        let vibration = ForceFeedbackVibration.findDevice()
        let silent = options.quiet || (json && options.audioDevice == nil)
        var device: any PlaybackDevice = PacedNullPlayback()
        var rate = Double(voice?.sampleRate ?? 22050)
        if !silent {
            do {
                let card = try SoundCardPlayback(deviceName: options.audioDevice)
                rate = card.preferredSampleRateHz(voiceRateHz: rate)
                device = card
            } catch let error as AudioDeviceError where options.audioDevice == nil {
                SpokenOutput.alertWithoutSound(vibration)
                UserData.warn("Guidance is printed but cannot be heard: \(error.userMessage) Use --speak-to FILE.wav to render it, or --quiet.")
            }
        }
        let queue = UtteranceQueue(voice: voice, sampleRateHz: rate, settings: settings)
        // Without a voice (--quiet, espeak-ng missing) every utterance is a tone: nothing to report.
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
    func close() {
        file?.close()
        speaker?.stopMonitoring()
    }
}
