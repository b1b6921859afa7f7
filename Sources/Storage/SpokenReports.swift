import AssistCore
import Foundation

/// The sentences spoken for "What did you detect recently?" and "Show my usage stats".
///
/// They live beside the data they read rather than in Guidance, because Storage must not depend
/// on Guidance (which comes later in the data flow) and these sentences need nothing but storage.
public enum SpokenReport {
    /// "Recently, in the order announced: person ahead, 2 meters, 87 percent sure; car on the left, …"
    public static func recentDetections(_ detections: [AnnouncedDetection], units: MeasurementUnits) -> String {
        guard !detections.isEmpty else { return "Nothing has been detected recently." }
        let items = detections.map { detection -> String in
            var parts = ["\(detection.label) \(detection.direction)"]
            if let meters = detection.distanceMeters { parts.append(distance(meters, units: units)) }
            parts.append("\(Int((detection.confidence * 100).rounded())) percent sure")
            return parts.joined(separator: ", ")
        }
        let heading = detections.count == 1 ? "Recently" : "The last \(detections.count) detections, oldest first"
        return "\(heading): \(items.joined(separator: "; "))."
    }

    /// "Today you used continuous detection for 45 minutes and 52 objects were announced."
    public static func usage(_ summary: UsageSummary, period: String = "Today") -> String {
        guard !summary.modes.isEmpty else { return "\(period) you have not used AssistiveKit." }
        let uses = summary.modes.map { "\(modeName($0.mode)) for \(duration($0.durationSeconds))" }
        let objects = summary.totalObjectsAnnounced
        let announced = objects == 1 ? "1 object was announced" : "\(objects) objects were announced"
        // A comma before the last "and" once the modes themselves are joined by "and".
        let joiner = uses.count > 1 ? ", and " : " and "
        return "\(period) you used \(list(uses))\(joiner)\(announced)."
    }

    /// A mode's spoken name ("continuous detection"); other activities ("picture description")
    /// are said as they are stored.
    static func modeName(_ stored: String) -> String {
        Mode(name: UsageStatistics.modeName(stored: stored))?.spokenName ?? stored
    }

    static func duration(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        if minutes < 1 { return "less than a minute" }
        if minutes < 60 { return minutes == 1 ? "1 minute" : "\(minutes) minutes" }
        let hours = minutes / 60, rest = minutes % 60
        let hourText = hours == 1 ? "1 hour" : "\(hours) hours"
        return rest == 0 ? hourText : "\(hourText) \(rest == 1 ? "1 minute" : "\(rest) minutes")"
    }

    static func distance(_ meters: Double, units: MeasurementUnits) -> String {
        switch units {
        case .metric:
            let value = meters < 10 ? (meters * 10).rounded() / 10 : meters.rounded()
            return "\(number(value)) \(value == 1 ? "meter" : "meters")"
        case .imperial:
            let feet = (meters / 0.3048).rounded()
            return "\(number(feet)) \(feet == 1 ? "foot" : "feet")"
        }
    }

    private static func number(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }

    private static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}

extension DetectionHistory {
    /// The answer to "What did you detect recently?" (`assist history recent`, and the spoken
    /// command): expired entries purged first, then the newest `count`, and the sentence said.
    public func recentReport(_ count: Int = 10, units: MeasurementUnits) throws -> (detections: [AnnouncedDetection], sentence: String) {
        _ = try purgeExpired()
        let detections = try recent(count)
        return (detections, SpokenReport.recentDetections(detections, units: units))
    }
}
