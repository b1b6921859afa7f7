import ArgumentParser
import AssistCore
import Foundation
import Speech
import Storage

/// The user's stored voice, for every command that speaks (options on the command line win).
enum StoredVoiceSpeech {
    /// The user's stored settings, read without failing a command that only wants the voice:
    /// nil when there is no database yet or it cannot be read.
    static func storedSettings() -> Storage.Settings? {
        // No database yet means no stored voice; don't create one just to read the defaults.
        guard FileManager.default.fileExists(atPath: StorageLocation().databaseFile.path),
              let database = try? SettingsStorageAccess.open() else { return nil }
        return try? SettingsStore(database: database, validator: SettingsStorageAccess.validator()).current()
    }

    /// The voice settings from the user's stored speech settings, or the defaults.
    static func voice(from stored: Storage.Settings?) -> SpeechVoiceSettings {
        guard let speech = stored?.speech else { return SpeechVoiceSettings() }
        return SpeechVoiceSettings(voice: speech.voice, wordsPerMinute: speech.rateWordsPerMinute,
                                   pitch: speech.pitch, volumePercent: speech.volumePercent)
    }
}
