import AssistCore
import Foundation
import SessionControl
import Guidance
import Perception
import Storage

/// The user's stored settings, history and usage statistics as `assist see` uses them.
///
/// Storage failing must never stop a description: the user is told once, in one sentence, and
/// the built-in defaults are used.
final class UserData {
    let settings: SettingsStore
    let history: DetectionHistory
    let usage: UsageStatistics

    private init(database: UserDatabase, knownCategories: [String]) {
        settings = SettingsStore(database: database, validator: SettingsValidator(knownCategories: knownCategories))
        history = DetectionHistory(database: database)
        usage = UsageStatistics(database: database)
    }

    /// Opens the user's database; on failure says why on stderr and returns nil.
    static func open(knownCategories: [String]) -> UserData? {
        do {
            return UserData(database: try SettingsStorageAccess.open(), knownCategories: knownCategories)
        } catch {
            warn("Settings and history are unavailable, so the defaults are used: \(userMessage(for: error))")
            return nil
        }
    }

    /// The current settings, or nil (and one warning) when they cannot be read.
    func currentSettings() -> Settings? {
        do { return try settings.current() } catch {
            UserData.warn("The settings could not be read, so the defaults are used: \(userMessage(for: error))")
            return nil
        }
    }

    /// Records what a description announced; a failure is reported, never fatal.
    func record(_ announced: [LocatedObject], mode: String, session: Int64?) {
        guard !history.database.isReadOnly else { return }  // said once, at opening
        do {
            try LiveHistoryRecorder.record(announced, mode: mode, in: history)
            if let session { try usage.recordProgress(session: session, addingFrames: 1, objectsAnnounced: announced.count) }
        } catch {
            UserData.warn("The detection history could not be saved: \(userMessage(for: error))")
        }
    }

    static func warn(_ sentence: String) {
        FileHandle.standardError.write(Data("\(sentence)\n".utf8))
    }
}
