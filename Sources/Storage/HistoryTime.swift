import AssistCore
import Foundation

/// "30m", "2h", "1d", "45s" back from now, or an ISO 8601 date or date-time.
public enum HistoryTime {
    public static func parse(_ text: String, option: String, now: Date = Date()) throws -> Date {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let unit = text.last, let seconds = units[unit], let amount = Double(text.dropLast()), amount >= 0 {
            return now.addingTimeInterval(-amount * seconds)
        }
        let dateTime = ISO8601DateFormatter()
        if let date = dateTime.date(from: text) { return date }
        let dateOnly = ISO8601DateFormatter()
        dateOnly.formatOptions = [.withFullDate]
        dateOnly.timeZone = .current
        if let date = dateOnly.date(from: text) { return date }
        throw HistoryTimeError(option: option, text: text)
    }

    /// `--since` and `--until` read as times; refused when either is neither a duration nor a date,
    /// or when the first is not earlier than the second.
    public static func range(since: String?, until: String?, now: Date = Date()) throws -> (since: Date?, until: Date?) {
        let from = try since.map { try parse($0, option: "--since", now: now) }
        let to = try until.map { try parse($0, option: "--until", now: now) }
        if let from, let to, from >= to { throw HistoryRangeError() }
        return (from, to)
    }
}

/// `--since` given a time that is not earlier than `--until`'s.
public struct HistoryRangeError: UserFacingError, Equatable {
    public init() {}
    public var userMessage: String { "--since must be earlier than --until." }
}

/// A time given to a history option that is neither a duration nor a date.
public struct HistoryTimeError: UserFacingError, Equatable {
    public let option: String
    public let text: String
    public init(option: String, text: String) {
        self.option = option
        self.text = text
    }
    public var userMessage: String {
        "\(option) must be a duration such as 30m, 2h or 1d, or an ISO 8601 date such as 2026-11-22; \"\(text)\" is neither."
    }
}

extension AnnouncedDetection {
    /// The line `assist history list` prints: when (local time), what, how sure, where, how far, in which mode.
    public var listLine: String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = .current
        let distance = distanceMeters.map { String(format: "%.1f m", $0) } ?? "distance unknown"
        return "\(formatter.string(from: announcedAt))  \(label)  \(Int((confidence * 100).rounded()))%  \(direction)  \(distance)  \(mode)"
    }
}
