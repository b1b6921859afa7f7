import Foundation
import Testing
@testable import Storage

/// A fresh pair of XDG folders under /tmp for one test, so no test touches the real home or
/// another test's files.
struct TemporaryStorage {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("assistivekit-storage-tests-\(UUID().uuidString)")
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

/// The `assist` executable built beside this test bundle (scripts/test builds it first).
func assistExecutable() throws -> URL {
    var candidates: [URL] = []
    if let bundle = Bundle.main.executableURL?.deletingLastPathComponent() {
        candidates.append(bundle.appendingPathComponent("assist"))
    }
    let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    candidates.append(checkout.appendingPathComponent(".build/debug/assist"))
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        throw CommandFailure(message: "the assist executable was not built; run scripts/test, which builds it first")
    }
    return found
}

struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

struct CommandResult {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

/// Runs a program to completion with `environment`, capturing its output.
func runProcess(_ executable: URL, _ arguments: [String], environment: [String: String]) throws -> CommandResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var merged = ProcessInfo.processInfo.environment
    for (key, value) in environment { merged[key] = value }
    process.environment = merged
    // Output goes to files, not pipes: Foundation's FileHandle reading a pipe on Linux traps
    // on EINTR when a child-exit signal lands mid-read.
    let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("assist-out-\(UUID().uuidString)")
    let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("assist-err-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    defer {
        try? FileManager.default.removeItem(at: outputFile)
        try? FileManager.default.removeItem(at: errorFile)
    }
    let output = try FileHandle(forWritingTo: outputFile), errors = try FileHandle(forWritingTo: errorFile)
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    try output.close()
    try errors.close()
    let outputData = try Data(contentsOf: outputFile), errorData = try Data(contentsOf: errorFile)
    return CommandResult(status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
                         standardError: String(decoding: errorData, as: UTF8.self))
}
