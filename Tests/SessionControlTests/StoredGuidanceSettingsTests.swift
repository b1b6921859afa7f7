import LiveGuidance
import SessionControl
import Speech
import Storage
import Testing

@Suite("Stored settings as the live policies use them")
struct StoredGuidanceSettingsTests {
    @Test("the hazard tone comes from the stored rule, not from the category")
    func toneFromRule() {
        var stored = Settings.defaults
        stored.detection.hazards = [HazardRule(category: "car", tone: .beep, intensity: 0.5),
                                    HazardRule(category: "dog", tone: .pulse, intensity: 0.9),
                                    HazardRule(category: "bicycle", tone: .chirp, intensity: 0.6)]
        let settings = GuidanceSettings(stored: stored)
        #expect(settings.hazards["car"] == HazardAlert(earcon: .obstacleHazard, intensity: 0.5))
        #expect(settings.hazards["dog"] == HazardAlert(earcon: .vehicleHazard, intensity: 0.9))
        #expect(settings.hazards["bicycle"] == HazardAlert(earcon: .dropHazard, intensity: 0.6))
        #expect(settings.exploreMaximumObjects == stored.detection.maximumObjects)
    }

    @Test("with hazard alerts off no category warns, and the rules are kept for turning them on again")
    func hazardAlertsOff() {
        var stored = Settings.defaults
        stored.detection.hazardAlerts = false
        #expect(GuidanceSettings(stored: stored).hazards.isEmpty)
        #expect(!stored.detection.hazards.isEmpty)
        stored.detection.hazardAlerts = true
        #expect(GuidanceSettings(stored: stored).hazards.keys.contains("car"))
    }
}
