import Foundation

/// Finds the folder that holds the detector models.
///
/// Order, as promised to users: `$ASSIST_MODELS`, then the `modelsDirectory` in the user's
/// config file (`$XDG_CONFIG_HOME/assistivekit/config.json`), then `../shared/models` next to
/// the working directory or next to the checkout the binary was built in.
public struct ModelLocator: Sendable {
    public static let defaultDetectorRelativePath = "yolo11n_int8_openvino_model/yolo11n.xml"

    public var environment: [String: String]
    public var workingDirectory: URL
    public var executableURL: URL?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment,
                workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                executableURL: URL? = Bundle.main.executableURL) {
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.executableURL = executableURL
    }

    /// Every folder tried, in order, whether or not it exists (for error messages).
    public var candidateDirectories: [URL] {
        var candidates: [URL] = []
        if let fromEnvironment = environment["ASSIST_MODELS"], !fromEnvironment.isEmpty {
            candidates.append(URL(fileURLWithPath: fromEnvironment))
        }
        if let configured = configuredModelsDirectory() { candidates.append(configured) }
        candidates.append(workingDirectory.appendingPathComponent("../shared/models").standardizedFileURL)
        // The binary lives in <checkout>/.build/<config>/assist; the checkout's sibling is shared/.
        if let executable = executableURL?.resolvingSymlinksInPath() {
            var folder = executable.deletingLastPathComponent()
            for _ in 0..<5 {
                folder = folder.deletingLastPathComponent()
                let shared = folder.appendingPathComponent("shared/models")
                if !candidates.contains(shared.standardizedFileURL) { candidates.append(shared.standardizedFileURL) }
            }
        }
        return candidates
    }

    /// The first candidate folder that exists.
    public func modelsDirectory() -> URL? {
        candidateDirectories.first { isDirectory($0) }
    }

    /// The shared data beside the models folder (../shared/data: pictures, videos, depth frames),
    /// which the benchmarks and evaluations default to; nil without a models folder.
    public func sharedDataDirectory() -> URL? {
        modelsDirectory()?.deletingLastPathComponent().appendingPathComponent("data")
    }

    /// The default detector's path, or an error listing where it was looked for. A folder the
    /// user named (ASSIST_MODELS, or `modelsDirectory` in the config file) must hold it: falling
    /// back silently would run another model than the one set up, and a config file that is not
    /// valid JSON is reported rather than ignored (issue 16).
    public func defaultDetector() throws -> URL {
        if let named = environment["ASSIST_MODELS"], !named.isEmpty {
            let model = URL(fileURLWithPath: named).appendingPathComponent(Self.defaultDetectorRelativePath)
            guard FileManager.default.fileExists(atPath: model.path) else {
                throw ModelLocatorError.notInNamedFolder(setting: "ASSIST_MODELS", folder: named)
            }
            return model
        }
        let file = Self.configFile(environment: environment)
        if let data = FileManager.default.contents(atPath: file.path) {
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw ModelLocatorError.invalidConfig(path: file.path, reason: "it is not a JSON object")
            }
            if let value = object["modelsDirectory"] {
                guard let path = value as? String, !path.isEmpty else {
                    throw ModelLocatorError.invalidConfig(path: file.path, reason: "modelsDirectory is not a folder's path")
                }
                let model = URL(fileURLWithPath: path).appendingPathComponent(Self.defaultDetectorRelativePath)
                guard FileManager.default.fileExists(atPath: model.path) else {
                    throw ModelLocatorError.notInNamedFolder(setting: "modelsDirectory in \(file.path)", folder: path)
                }
                return model
            }
        }
        for folder in candidateDirectories {
            let model = folder.appendingPathComponent(Self.defaultDetectorRelativePath)
            if FileManager.default.fileExists(atPath: model.path) { return model }
        }
        throw ModelLocatorError.defaultModelNotFound(searched: candidateDirectories.map(\.path))
    }

    public static func configFile(environment: [String: String]) -> URL {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".config")
        return base.appendingPathComponent("assistivekit/config.json")
    }

    private func configuredModelsDirectory() -> URL? {
        let file = Self.configFile(environment: environment)
        guard let data = try? Data(contentsOf: file),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let path = object["modelsDirectory"] as? String, !path.isEmpty else { return nil }
        return URL(fileURLWithPath: path)
    }

    private func isDirectory(_ url: URL) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
    }
}

public enum ModelLocatorError: UserFacingError, Equatable {
    case defaultModelNotFound(searched: [String])
    case notInNamedFolder(setting: String, folder: String)
    case invalidConfig(path: String, reason: String)

    public var userMessage: String {
        switch self {
        case .defaultModelNotFound(let searched):
            return "The default detector model \(ModelLocator.defaultDetectorRelativePath) was not found; "
                + "set ASSIST_MODELS to the folder that holds it (looked in: \(searched.joined(separator: ", ")))."
        case .notInNamedFolder(let setting, let folder):
            return "\(setting) names \(folder), which does not hold the default detector model \(ModelLocator.defaultDetectorRelativePath); "
                + "point it at the folder that holds the model (or remove the setting)."
        case .invalidConfig(let path, let reason):
            return "The configuration file \(path) cannot be used: \(reason); fix or remove it."
        }
    }
}
