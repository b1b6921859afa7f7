import ArgumentParser
import AssistCore
import Foundation
import Speech
import Storage

/// Renders what a command says into a WAV file (`--speak-to`) with the user's stored voice.
enum StoredVoiceSpeech {
    /// The user's stored settings, read without failing a command that only wants the voice:
    /// nil when there is no database yet or it cannot be read.
    static func storedSettings() -> Storage.Settings? {
        let location = StorageLocation()
        guard FileManager.default.fileExists(atPath: location.databaseFile.path),
              let database = try? UserDatabase.open(location) else { return nil }
        return try? SettingsStore(database: database, validator: SettingsValidator(knownCategories: SettingsValidator.cocoCategories)).current()
    }

    /// The voice settings from the user's stored speech settings, or the defaults.
    static func voice(from stored: Storage.Settings?) -> SpeechVoiceSettings {
        guard let speech = stored?.speech else { return SpeechVoiceSettings() }
        return SpeechVoiceSettings(voice: speech.voice, wordsPerMinute: speech.rateWordsPerMinute,
                                   pitch: speech.pitch, volumePercent: speech.volumePercent)
    }

    /// Speaks each text, one after another, into `path` through the utterance queue; errors end
    /// the command with one sentence.
    ///
    /// Reports the user asked for (the recent detections, the usage report) are answers, read in
    /// full: the queue's 3-second limit is for announcements made while walking, not for these.
    static func render(_ texts: [String], to path: String, voice: SpeechVoiceSettings) throws {
        do {
            let queue = UtteranceQueue(voice: try SpeechSynthesizer(settings: voice),
                                       settings: UtteranceQueueSettings(maximumSpeechSeconds: 300, spatialAudio: false))
            let file = try WAVFileOutput(url: URL(fileURLWithPath: path), sampleRateHz: queue.sampleRateHz)
            defer { file.close() }
            for (index, text) in texts.enumerated() where !text.isEmpty {
                _ = queue.enqueue(Utterance(text, priority: .answer, contentKey: "report#\(index)"))
            }
            try queue.renderUntilIdle(to: file)
        } catch {
            throw CommandFailure(userMessage(for: error), exitCode: 1)
        }
    }
}
