import Foundation

/// Scratch space for what a test makes: one place, one naming, so parallel tests never share a file.
public enum TemporaryFolder {
    /// A new empty folder in this test run's folder (`runFolder`), named after `label`; the caller removes it.
    public static func make(_ label: String = "assistivekit-tests") throws -> URL {
        let folder = path(label)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A fresh path in this test run's folder ending in `name` (a file such as "speech.wav", or a
    /// folder, that the caller makes); nothing is created.
    public static func path(_ name: String) -> URL {
        runFolder.appendingPathComponent("\(UUID().uuidString)-\(name)")
    }

    /// One folder per test process, under the system's temporary folder, removed when the process
    /// exits: what a test forgets to remove (a clinic's store is 24 MB) does not pile up on a
    /// developer's machine run after run.
    static let runFolder: URL = {
        let folder = runFolderPath()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TemporaryFolder.runFolderPath()) }
        return folder
    }()

    private static func runFolderPath() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("assistivekit-tests-\(getpid())")
    }

    /// The compiled-model cache every test run of `assist` shares, so a model is prepared once,
    /// not once per test.
    public static let modelCache = FileManager.default.temporaryDirectory.appendingPathComponent("assist-test-cache")
}
