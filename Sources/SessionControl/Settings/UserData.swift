import AssistCore
import Commands
import Foundation
import Guidance
import Perception
import Speech
import Storage

/// The user's stored settings, history and usage statistics as a session uses them.
///
/// Storage failing must never stop a description: the user is told once, in one sentence, and
/// the built-in defaults are used.
public final class UserData: @unchecked Sendable {
    public let settings: SettingsStore
    public let history: DetectionHistory
    public let usage: UsageStatistics

    private init(database: UserDatabase, knownCategories: [String]) {
        settings = SettingsStore(database: database, validator: SettingsValidator(knownCategories: knownCategories,
                                                                                   languages: SettingsStorageAccess.writtenLanguages()))
        history = DetectionHistory(database: database)
        usage = UsageStatistics(database: database)
    }

    /// Opens the user's database; on failure says why on stderr and returns nil.
    public static func open(knownCategories: [String]) -> UserData? {
        do {
            return UserData(database: try SettingsStorageAccess.open(), knownCategories: knownCategories)
        } catch {
            warn("Settings and history are unavailable, so the defaults are used: \(userMessage(for: error))")
            return nil
        }
    }

    /// The current settings, or nil (and one warning) when they cannot be read.
    public func currentSettings() -> Settings? {
        do { return try settings.current() } catch {
            UserData.warn("The settings could not be read, so the defaults are used: \(userMessage(for: error))")
            return nil
        }
    }

    /// Records what a description announced; a failure is reported, never fatal.
    public func record(_ announced: [LocatedObject], mode: String, session: Int64?) {
        guard !history.database.isReadOnly else { return }  // said once, at opening
        do {
            try LiveHistoryRecorder.record(announced, mode: mode, in: history)
            if let session { try usage.recordProgress(session: session, addingFrames: 1, objectsAnnounced: announced.count) }
        } catch {
            UserData.warn("The detection history could not be saved: \(userMessage(for: error))")
        }
    }

    public static func warn(_ sentence: String) {
        FileHandle.standardError.write(Data("\(sentence)\n".utf8))
    }
}

/// Opens the user's database (for the storage commands and sessions), and tells the user once, on standard
/// error, when a damaged file had to be moved aside.
public enum SettingsStorageAccess {
    /// - Parameter toChange: the command is there to change something (set a setting, clear
    ///   history, import a backup). When the disk refuses writes that cannot be done, and the one
    ///   sentence is why, thrown (issue 39: the read-only note, "your saved settings are used", came
    ///   first and then a second sentence that the file cannot be used).
    public static func open(toChange: Bool = false) throws -> UserDatabase {
        let database = try UserDatabase.open()
        if toChange, let readOnly = database.readOnly {
            try? database.close()
            throw readOnly.problem
        }
        for sentence in [database.recovery?.userMessage, database.readOnly?.userMessage, database.keyRecovery?.userMessage] {
            if let sentence { tellOnce(sentence) }
        }
        return database
    }

    /// A command may open the database more than once (`see` reads the stored voice, then the
    /// settings and history): what the opening found is said the first time only (issue 39:
    /// `see` said its read-only warning twice).
    static func tellOnce(_ sentence: String) {
        let isNew = toldLock.withLock { told.insert(sentence).inserted }
        if isNew { FileHandle.standardError.write(Data((sentence + "\n").utf8)) }
    }

    private static let toldLock = NSLock()
    nonisolated(unsafe) private static var told: Set<String> = []

    /// Category names come from the installed detector's own class list when there is one, so
    /// a custom model's classes are accepted; otherwise the default model's 80 COCO names.
    public static func validator() -> SettingsValidator {
        if let model = try? ModelLocator().defaultDetector(),
           let names = try? ClassNames.find(forModel: model), !names.names.isEmpty {
            return SettingsValidator(knownCategories: names.names, languages: writtenLanguages())
        }
        return SettingsValidator(knownCategories: SettingsValidator.cocoCategories, languages: writtenLanguages())
    }

    /// The languages both the sentences and the command language are written in: the ones a
    /// user can choose ("en").
    public static func writtenLanguages() -> [String] {
        Set(Phrasebook.bundledLanguages()).intersection(CommandLanguage.bundledLanguages()).sorted()
    }

    /// The command language a session speaks for the stored `speech.language` ("en-GB" is
    /// English), and, when sentences are not written in the stored one, the sentence that says
    /// so. Setting such a language is refused (`SettingsValidator.languages`), but one stored
    /// before that rule, or by another version, is still read: spoken over, never silently.
    public static func commandLanguage(stored: String, categories: [String]) throws -> (language: CommandLanguage, note: String?) {
        let wanted = stored.split(separator: "-").first.map { $0.lowercased() } ?? ""
        if writtenLanguages().contains(wanted) {
            return (try CommandLanguage(language: wanted, categories: categories), nil)
        }
        let language = try CommandLanguage(language: Storage.Settings.defaults.speech.language, categories: categories)
        let note = language.sentence(.storedLanguageNotAvailable, ["language": language.name(ofLanguage: wanted),
                                                                   "available": language.name(ofLanguage: language.language)])
        return (language, note)
    }
}

/// The user's stored voice, for every command that speaks (options on the command line win).
public enum StoredVoiceSpeech {
    /// The user's stored settings, read without failing a command that only wants the voice:
    /// nil when there is no database yet or it cannot be read.
    public static func storedSettings() -> Storage.Settings? {
        // No database yet means no stored voice; don't create one just to read the defaults.
        guard FileManager.default.fileExists(atPath: StorageLocation().databaseFile.path),
              let database = try? SettingsStorageAccess.open() else { return nil }
        return try? SettingsStore(database: database, validator: SettingsStorageAccess.validator()).current()
    }

    /// The voice settings from the user's stored speech settings, or the defaults.
    /// The voice a command speaks in: what it was given (nil: not given) over the stored speech
    /// settings over the defaults.
    public static func voice(_ voice: String?, wordsPerMinute: Int?, pitch: Int?, volumePercent: Int?) -> SpeechVoiceSettings {
        let stored = Self.voice(from: storedSettings())
        return SpeechVoiceSettings(voice: voice ?? stored.voice, wordsPerMinute: wordsPerMinute ?? stored.wordsPerMinute,
                                   pitch: pitch ?? stored.pitch, volumePercent: volumePercent ?? stored.volumePercent)
    }

    public static func voice(from stored: Storage.Settings?) -> SpeechVoiceSettings {
        guard let speech = stored?.speech else { return SpeechVoiceSettings() }
        return SpeechVoiceSettings(voice: speech.voice, wordsPerMinute: speech.rateWordsPerMinute,
                                   pitch: speech.pitch, volumePercent: speech.volumePercent)
    }
}
