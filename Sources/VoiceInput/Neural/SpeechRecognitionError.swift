import AssistCore
import ONNXRuntime

/// Why the speech recogniser cannot listen, as one sentence that says what to do.
public enum SpeechRecognitionError: UserFacingError, Equatable {
    case modelsNotInstalled(searched: [String])
    /// A model file ONNX Runtime could not load or run (damaged, wrong file).
    case model(ONNXRuntimeError)
    case tokenizerDamaged(path: String, reason: String)

    /// The process is exiting and ONNX Runtime turned the recogniser away: no failure to tell.
    public var isProcessEnding: Bool { self == .model(.processEnding) }

    public var userMessage: String {
        switch self {
        case .modelsNotInstalled(let searched):
            return "The speech recogniser's models (moonshine-base-en and silero-vad) are not installed; run scripts/setup, or set ASSIST_MODELS to the folder that holds them (looked in: \(searched.joined(separator: ", ")))."
        case .model(let error):
            return error.userMessage
        case .tokenizerDamaged(let path, let reason):
            return "The speech recogniser's tokenizer \(path) is damaged (\(reason)); run scripts/setup to install it again."
        }
    }
}
