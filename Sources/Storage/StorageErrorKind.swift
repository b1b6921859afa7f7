import AssistCore

extension StorageError {
    /// A value the setting does not allow (`settings set speech.pitch 1e19`): the user's input was
    /// wrong, as with a bad option, rather than the store failing.
    public var refusesValue: Bool {
        switch self {
        case .invalidSetting, .unknownCategory, .conflictingSettings: return true
        default: return false
        }
    }
}
