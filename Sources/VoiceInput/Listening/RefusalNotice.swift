/// What the user hears when speech is not acted on. In a noisy street the detector opens on
/// bursts of noise every few seconds; the full explanation each time would bury the guidance the
/// user is walking by. So the full sentence is said once, and while refusals keep coming within
/// `repeatWindowSeconds` of the last, a two-word reminder: never silent, never a lecture.
public struct RefusalNotice: Sendable {
    public var repeatWindowSeconds: Double
    private var lastTooNoisySeconds = -Double.infinity

    public static let tooNoisyReminder = "Too noisy."

    public init(repeatWindowSeconds: Double = 30) {
        self.repeatWindowSeconds = repeatWindowSeconds
    }

    /// The sentence for speech refused as too noisy, heard at `seconds` on the audio clock.
    public mutating func tooNoisy(atSeconds seconds: Double) -> String {
        defer { lastTooNoisySeconds = seconds }
        return seconds - lastTooNoisySeconds < repeatWindowSeconds ? Self.tooNoisyReminder : CommandListener<Never>.tooNoisy
    }
}
