import AssistCore
import Foundation

/// "30m", "2h", "1d", "45s" back from now, or an ISO 8601 date or date-time.
public enum HistoryTime {
    /// Which bound of a period of history a time gives.
    public enum Bound: Sendable, Equatable, CaseIterable {
        /// From this time on (history listed).
        case since
        /// Up to this time (history listed).
        case until
        /// Everything older than this time (history cleared).
        case before

        /// The bound as the user knows it, at the start of a sentence.
        public var name: String {
            switch self {
            case .since: return "The start of the period"
            case .until: return "The end of the period"
            case .before: return "The time to clear before"
            }
        }
    }

    public static func parse(_ text: String, bound: Bound, now: Date = Date()) throws -> Date {
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
        throw HistoryTimeError(bound: bound, text: text)
    }

    /// The start and end of a period read as times; refused when either is neither a duration nor
    /// a date, or when the start is not earlier than the end.
    public static func range(since: String?, until: String?, now: Date = Date()) throws -> (since: Date?, until: Date?) {
        let from = try since.map { try parse($0, bound: .since, now: now) }
        let to = try until.map { try parse($0, bound: .until, now: now) }
        if let from, let to, from >= to { throw HistoryRangeError() }
        return (from, to)
    }
}

/// A period whose start is not earlier than its end.
public struct HistoryRangeError: UserFacingError, Equatable {
    public init() {}
    public var userMessage: String { "The start of the period must be earlier than its end." }
}

/// A time given for a bound of a period that is neither a duration nor a date.
public struct HistoryTimeError: UserFacingError, Equatable {
    public let bound: HistoryTime.Bound
    public let text: String
    public init(bound: HistoryTime.Bound, text: String) {
        self.bound = bound
        self.text = text
    }
    public var userMessage: String { "\(bound.name) \(requirement)" }
    /// What the time must be, after the bound's name: "must be a duration such as 30m, …".
    public var requirement: String {
        "must be a duration such as 30m, 2h or 1d, or an ISO 8601 date such as 2026-11-22; \"\(text)\" is neither."
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
