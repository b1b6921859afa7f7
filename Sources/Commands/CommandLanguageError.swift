import AssistCore

/// Problems with a language file: found when it is loaded, never while the user speaks.
public enum CommandLanguageError: UserFacingError, Equatable {
    case unreadable(language: String, detail: String)
    case badPattern(pattern: String, problem: String)
    case missingIntent(language: String, intent: String)
    case wrongSlot(intent: String, pattern: String)
    case missingSentence(language: String, name: String)

    public var userMessage: String {
        switch self {
        case .unreadable(let language, let detail):
            return "The command file for \(language) could not be read: \(detail)."
        case .badPattern(let pattern, let problem):
            return "The command pattern \"\(pattern)\" has \(problem)."
        case .missingIntent(let language, let intent):
            return "The command file for \(language) has no phrases for \(intent)."
        case .wrongSlot(let intent, let pattern):
            return "The pattern \"\(pattern)\" does not carry the value that \(intent) needs."
        case .missingSentence(let language, let name):
            return "The command file for \(language) has no sentence \(name)."
        }
    }
}
