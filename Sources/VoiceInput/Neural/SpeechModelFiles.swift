import AssistCore
import Foundation
import ONNXRuntime

/// Where the neural recogniser's model files lie: Moonshine base-en (encoder, merged decoder,
/// tokenizer) and Silero VAD, as `scripts/setup` installs them into `.deps/models` from their
/// pinned PyPI wheels.
///
/// Looked for, in order: `$ASSIST_MODELS`, the config file's `modelsDirectory`, `../shared/models`
/// (the detector's folders, `ModelLocator`), then `.deps/models` in the working directory and in
/// the checkout the binary was built in. The first folder that holds `moonshine-base-en/` wins.
public struct SpeechModelFiles: Sendable, Equatable {
    public let encoder: URL
    public let decoder: URL
    public let tokenizer: URL
    public let voiceActivity: URL

    public init(moonshineFolder: URL, voiceActivity: URL) {
        encoder = moonshineFolder.appendingPathComponent("encoder_model.ort")
        decoder = moonshineFolder.appendingPathComponent("decoder_model_merged.ort")
        tokenizer = moonshineFolder.appendingPathComponent("tokenizer.bin")
        self.voiceActivity = voiceActivity
    }

    /// Whether the recogniser must first make its folded copies (`ONNXModelExport.foldedCopy`):
    /// the first use after `scripts/setup`, some seconds of work, said to the user beforehand
    /// (`ControlSentence.preparingSpeechRecognition`) so that the wait is not a silence.
    public var needsPreparing: Bool {
        FileManager.default.fileExists(atPath: encoder.path)
            && !(ONNXModelExport.hasFoldedCopy(of: encoder) && ONNXModelExport.hasFoldedCopy(of: decoder))
    }

    /// The files under a models folder laid out as `scripts/setup` lays out `.deps/models`.
    public init(modelsFolder: URL) {
        self.init(moonshineFolder: modelsFolder.appendingPathComponent("moonshine-base-en"),
                  voiceActivity: modelsFolder.appendingPathComponent("silero-vad/silero_vad.onnx"))
    }

    public static func candidateFolders(locator: ModelLocator = ModelLocator()) -> [URL] {
        var folders = locator.candidateDirectories
        folders.append(locator.workingDirectory.appendingPathComponent(".deps/models").standardizedFileURL)
        // The binary lives in <checkout>/.build/<config>/assist (or deeper for tests).
        if let executable = locator.executableURL?.resolvingSymlinksInPath() {
            var folder = executable.deletingLastPathComponent()
            for _ in 0..<5 {
                folder = folder.deletingLastPathComponent()
                let deps = folder.appendingPathComponent(".deps/models").standardizedFileURL
                if !folders.contains(deps) { folders.append(deps) }
            }
        }
        return folders
    }

    /// The installed files, or an error naming where they were looked for.
    public static func installed(locator: ModelLocator = ModelLocator()) throws(SpeechRecognitionError) -> SpeechModelFiles {
        let folders = candidateFolders(locator: locator)
        for folder in folders where FileManager.default.fileExists(atPath: folder.appendingPathComponent("moonshine-base-en").path) {
            return SpeechModelFiles(modelsFolder: folder)
        }
        throw .modelsNotInstalled(searched: folders.map(\.path))
    }
}
