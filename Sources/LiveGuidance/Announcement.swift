import Speech

/// One thing a policy wants the user to perceive: words and/or a tone, with an optional
/// vibration. The utterance queue decides when it is heard and suppresses repeats.
public struct Announcement: Sendable, Equatable {
    public var utterance: Utterance
    public var vibration: VibrationPattern?

    public init(_ utterance: Utterance, vibration: VibrationPattern? = nil) {
        self.utterance = utterance
        self.vibration = vibration
    }
}
