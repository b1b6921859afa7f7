import Speech
import Perception

/// One thing a policy wants the user to perceive: words and/or a tone, with an optional
/// vibration. The utterance queue decides when it is heard and suppresses repeats.
public struct Announcement: Sendable, Equatable {
    public var utterance: Utterance
    public var vibration: VibrationPattern?
    /// The detected objects it names (for the detection history: "what did you detect recently?").
    public var mentions: [LocatedObject]

    public init(_ utterance: Utterance, vibration: VibrationPattern? = nil, mentions: [LocatedObject] = []) {
        self.utterance = utterance
        self.vibration = vibration
        self.mentions = mentions
    }
}
