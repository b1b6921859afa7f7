import Foundation
import TestSupport
import Testing
@testable import AssistCore

@Suite("Finding the models folder")
struct ModelLocatorTests {
    @Test("ASSIST_MODELS comes before the config file and ../shared/models")
    func environmentWins() throws {
        let folder = try TemporaryFolder.make("models")
        defer { try? FileManager.default.removeItem(at: folder) }
        let locator = ModelLocator(environment: ["ASSIST_MODELS": folder.path, "HOME": "/nonexistent"],
                                   workingDirectory: URL(fileURLWithPath: "/nonexistent"), executableURL: nil)
        #expect(locator.modelsDirectory()?.path == folder.path)
        // The benchmarks' and evaluations' default data sits beside the models folder.
        #expect(locator.sharedDataDirectory() == folder.deletingLastPathComponent().appendingPathComponent("data"))
    }

    @Test("the config file's modelsDirectory is used when ASSIST_MODELS is unset")
    func configFile() throws {
        let home = TemporaryFolder.path("home")
        let models = home.appendingPathComponent("my-models")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let config = ModelLocator.configFile(environment: ["HOME": home.path])
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"modelsDirectory": "\#(models.path)"}"#.utf8).write(to: config)
        let locator = ModelLocator(environment: ["HOME": home.path],
                                   workingDirectory: URL(fileURLWithPath: "/nonexistent"), executableURL: nil)
        #expect(locator.modelsDirectory()?.path == models.path)
    }

    @Test("a missing default model is reported with every folder searched")
    func missingModel() {
        let locator = ModelLocator(environment: ["ASSIST_MODELS": "/nonexistent/a", "HOME": "/nonexistent"],
                                   workingDirectory: URL(fileURLWithPath: "/nonexistent/b"), executableURL: nil)
        #expect(throws: ModelLocatorError.self) { try locator.defaultDetector() }
        do { _ = try locator.defaultDetector() } catch {
            #expect(userMessage(for: error).contains("/nonexistent/a"))
            #expect(userMessage(for: error).hasSuffix(")."))
        }
    }

    @Test("an ASSIST_MODELS folder without the model, and a config file that is not JSON, are reported by name")
    func namedFolderWithoutModel() throws {
        let folder = try TemporaryFolder.make("models")
        defer { try? FileManager.default.removeItem(at: folder) }
        let checkout = SharedFiles.checkout
        // ../shared/models would have the model: it must not be used in place of the named folder.
        let named = ModelLocator(environment: ["ASSIST_MODELS": folder.path, "HOME": "/nonexistent"], workingDirectory: checkout, executableURL: nil)
        #expect(throws: ModelLocatorError.notInNamedFolder(setting: "ASSIST_MODELS", folder: folder.path)) { try named.defaultDetector() }

        let config = ModelLocator.configFile(environment: ["HOME": folder.path])
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{ modelsDirectory: nowhere".utf8).write(to: config)
        let configured = ModelLocator(environment: ["HOME": folder.path], workingDirectory: checkout, executableURL: nil)
        #expect(throws: ModelLocatorError.invalidConfig(path: config.path, reason: "it is not a JSON object")) { try configured.defaultDetector() }
    }

    @Test("the shared models folder next to the checkout is found from the working directory")
    func sharedFolder() {
        let checkout = SharedFiles.checkout
        let locator = ModelLocator(environment: ["HOME": "/nonexistent"], workingDirectory: checkout, executableURL: nil)
        #expect(throws: Never.self) { try locator.defaultDetector() }
    }
}
