import Foundation

/// Scratch space for what a test makes: one place, one naming, so parallel tests never share a file.
public enum TemporaryFolder {
    /// A new empty folder under the system's temporary folder, named after `label`; the caller removes it.
    public static func make(_ label: String = "assistivekit-tests") throws -> URL {
        let folder = path(label)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A fresh path under the system's temporary folder ending in `name` (a file such as
    /// "speech.wav", or a folder, that the caller makes and removes); nothing is created.
    public static func path(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)")
    }

    /// The compiled-model cache every test run of `assist` shares, so a model is prepared once,
    /// not once per test.
    public static let modelCache = FileManager.default.temporaryDirectory.appendingPathComponent("assist-test-cache")
}
