import ArgumentParser
import AssistCore
import Foundation
import Speech
import Storage

/// Renders what a command says into a WAV file (`--speak-to`) with the user's stored voice.
enum StoredVoiceSpeech {
    /// The voice settings from the user's stored speech settings, or the defaults.
    static func voice(from stored: Storage.Settings?) -> SpeechVoiceSettings {
        guard let speech = stored?.speech else { return SpeechVoiceSettings() }
        return SpeechVoiceSettings(voice: speech.voice, wordsPerMinute: speech.rateWordsPerMinute,
                                   pitch: speech.pitch, volumePercent: speech.volumePercent)
    }

    /// Speaks each text, with a pause between them, into `path`; errors end the command with one sentence.
    static func render(_ texts: [String], to path: String, voice: SpeechVoiceSettings) throws {
        do {
            let synthesizer = try SpeechSynthesizer(settings: voice)
            let audio = try texts.filter { !$0.isEmpty }.map { try synthesizer.synthesize($0) }
            try SpeechFileSink(url: URL(fileURLWithPath: path)).write(audio)
        } catch {
            throw CommandFailure(userMessage(for: error), exitCode: 1)
        }
    }
}
