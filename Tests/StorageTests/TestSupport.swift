import Foundation
import TestSupport
import Testing
@testable import Storage

/// A fresh pair of XDG folders under /tmp for one test, so no test touches the real home or
/// another test's files.
struct TemporaryStorage {
    let root: URL

    init() throws {
        root = TemporaryFolder.path("assistivekit-storage-tests")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    var environment: [String: String] {
        ["XDG_DATA_HOME": root.appendingPathComponent("data").path,
         "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
         "HOME": root.appendingPathComponent("home").path]
    }

    var location: StorageLocation { StorageLocation(environment: environment) }

    func open(_ options: UserDatabase.Options = UserDatabase.Options()) throws -> UserDatabase {
        try UserDatabase.open(location, options: options)
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }

    /// The database file and its WAL and shared-memory companions, as far as they exist.
    var databaseFiles: [URL] {
        let path = location.databaseFile.path
        return [path, path + "-wal", path + "-shm"].filter(FileManager.default.fileExists).map(URL.init(fileURLWithPath:))
    }
}

let coco = SettingsValidator(knownCategories: SettingsValidator.cocoCategories)

func settingsStore(_ database: UserDatabase) -> SettingsStore {
    SettingsStore(database: database, validator: coco)
}

/// The `StorageError` a throwing call threw, failing the test when it threw nothing or something else.
func storageError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> StorageError? {
    do {
        try body()
        Issue.record("expected a StorageError, but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as StorageError {
        return error
    } catch {
        Issue.record("expected a StorageError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

func detection(_ label: String, _ confidence: Double = 0.8, direction: String = "ahead", meters: Double? = 2,
               mode: String = "continuous", at time: Date) -> AnnouncedDetection {
    AnnouncedDetection(label: label, confidence: confidence, direction: direction, distanceMeters: meters, mode: mode, announcedAt: time)
}

/// A fixed "now" with whole seconds, so times survive every round trip exactly.
let referenceNow = Date(timeIntervalSince1970: 1_795_000_000)
