import LiveGuidance
import Storage

extension GuidanceSettings {
    /// The stored settings as the policies use them: each hazard rule with its own tone (the
    /// rule decides the sound: `HazardAlert(toneName:intensity:)`) and intensity, none when hazard alerts are
    /// off; the explore count.
    public init(stored: Settings) {
        var hazards: [String: HazardAlert] = [:]
        // Hazard alerts turned off: no category warns (its rules are kept for turning them on).
        for rule in stored.detection.hazards where stored.detection.hazardAlerts {
            hazards[rule.category] = HazardAlert(toneName: rule.tone.rawValue, intensity: rule.intensity)
        }
        self.init(hazards: hazards)
        exploreMaximumObjects = stored.detection.maximumObjects
    }
}
