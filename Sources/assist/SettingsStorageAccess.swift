import AssistCore
import Foundation
import Perception
import Storage

/// Opens the user's database for the storage commands, and tells the user once, on standard
/// error, when a damaged file had to be moved aside.
enum SettingsStorageAccess {
    static func open() throws -> UserDatabase {
        let database = try UserDatabase.open()
        if let recovery = database.recovery {
            FileHandle.standardError.write(Data((recovery.userMessage + "\n").utf8))
        }
        if let readOnly = database.readOnly {
            FileHandle.standardError.write(Data((readOnly.userMessage + "\n").utf8))
        }
        if let keyRecovery = database.keyRecovery {
            FileHandle.standardError.write(Data((keyRecovery.userMessage + "\n").utf8))
        }
        return database
    }

    /// Category names come from the installed detector's own class list when there is one, so
    /// a custom model's classes are accepted; otherwise the default model's 80 COCO names.
    static func validator() -> SettingsValidator {
        if let model = try? ModelLocator().defaultDetector(),
           let names = try? ClassNames.find(forModel: model), !names.names.isEmpty {
            return SettingsValidator(knownCategories: names.names)
        }
        return SettingsValidator(knownCategories: SettingsValidator.cocoCategories)
    }

    static func printJSON<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
