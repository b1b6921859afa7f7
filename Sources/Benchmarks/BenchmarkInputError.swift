import AssistCore

/// A file a benchmark was given that it cannot use.
public enum BenchmarkInputError: UserFacingError, Equatable {
    case unreadable(path: String)

    public var userMessage: String {
        switch self {
        case .unreadable(let path): return "\(path) could not be read."
        }
    }
}
