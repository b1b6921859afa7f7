import LiveGuidance
import Storage

extension GuidanceSettings {
    /// The stored settings as the policies use them: each hazard rule with its own tone (the
    /// rule decides the sound: `HazardAlert(toneName:intensity:)`) and intensity; the explore count.
    public init(stored: Settings) {
        var hazards: [String: HazardAlert] = [:]
        for rule in stored.detection.hazards {
            hazards[rule.category] = HazardAlert(toneName: rule.tone.rawValue, intensity: rule.intensity)
        }
        self.init(hazards: hazards)
        exploreMaximumObjects = stored.detection.maximumObjects
    }
}
