import AssistCore
import Foundation

/// The day `assist stats --day` reports: today, yesterday or a date, midnight to midnight local time.
public struct UsageDay: Sendable, Equatable {
    public let start: Date
    public let end: Date
    /// How the report's sentence names it: "Today", "Yesterday", "On 2026-11-22".
    public let name: String

    /// A day that is neither today, yesterday nor a date.
    public struct Unknown: UserFacingError, Equatable {
        public let text: String
        public init(text: String) { self.text = text }
        public var userMessage: String { "The day \(requirement)" }
        /// What the day must be, after its name.
        public var requirement: String {
            "must be today, yesterday or a date such as 2026-11-22; \"\(text)\" is none of these."
        }
    }

    public init(_ day: String, now: Date = Date(), calendar: Calendar = .current) throws {
        let today = calendar.startOfDay(for: now)
        switch day.lowercased() {
        case "today": (start, name) = (today, "Today")
        case "yesterday": (start, name) = (calendar.date(byAdding: .day, value: -1, to: today)!, "Yesterday")
        default:
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withFullDate]
            formatter.timeZone = calendar.timeZone
            guard let date = formatter.date(from: day) else { throw Unknown(text: day) }
            (start, name) = (calendar.startOfDay(for: date), "On \(day)")
        }
        end = calendar.date(byAdding: .day, value: 1, to: start)!
    }
}

extension UsageSummary {
    /// One line per mode under the spoken sentence: sessions, minutes, frames, objects, battery.
    public var modeLines: [String] {
        modes.map { mode in
            let battery = mode.batteryUsedPercent.map { String(format: ", %.1f %% battery", $0) } ?? ""
            return "  \(mode.mode): \(mode.sessions) session\(mode.sessions == 1 ? "" : "s"), \(Int((mode.durationSeconds / 60).rounded())) min, \(mode.frames) frames, \(mode.objectsAnnounced) objects announced\(battery)"
        }
    }
}
