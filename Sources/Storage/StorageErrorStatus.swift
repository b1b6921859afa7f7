import AssistCore

extension StorageError {
    /// The exit status of this failure: a value the setting does not allow is bad usage, like a
    /// bad option (`settings set speech.pitch 1e19`); anything else means the work failed.
    public var status: ExitStatus {
        switch self {
        case .invalidSetting, .unknownCategory, .conflictingSettings: return .badUsage
        default: return .failed
        }
    }
}
