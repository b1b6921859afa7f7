import ArgumentParser
import Foundation
import Storage
import SessionControl
import Speech

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Report usage for a day: time per mode, frames, objects announced and battery used where known.",
        discussion: "The first line is the sentence spoken for \"Show my usage stats\"."
    )

    @Option(help: "today, yesterday, or a date such as 2026-11-22.")
    var day = "today"

    @Flag(help: "Print JSON (the sentence and the per-mode totals) for scripts.")
    var json = false

    @OptionGroup(title: "Speech") var speech: SpeechOutputOptions

    func validate() throws {
        _ = try interval()
    }

    /// Midnight to midnight, local time.
    func interval(now: Date = Date()) throws -> (start: Date, end: Date, name: String) {
        let calendar = Calendar.current
        let today = calendar.startOfDay(for: now)
        let start: Date, name: String
        switch day.lowercased() {
        case "today": (start, name) = (today, "Today")
        case "yesterday": (start, name) = (calendar.date(byAdding: .day, value: -1, to: today)!, "Yesterday")
        default:
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withFullDate]
            formatter.timeZone = .current
            guard let date = formatter.date(from: day) else {
                throw ValidationError("--day must be today, yesterday or a date such as 2026-11-22; \"\(day)\" is none of these.")
            }
            (start, name) = (calendar.startOfDay(for: date), "On \(day)")
        }
        return (start, calendar.date(byAdding: .day, value: 1, to: start)!, name)
    }

    struct Output: Encodable {
        var sentence: String
        var summary: UsageSummary
    }

    func run() throws {
        let database = try SettingsStorageAccess.open()
        let statistics = UsageStatistics(database: database)
        let period = try interval()
        let summary = try statistics.summary(from: period.start, to: period.end)
        let sentence = SpokenReport.usage(summary, period: period.name)
        if json {
            try SettingsStorageAccess.printJSON(Output(sentence: sentence, summary: summary))
        } else {
            print(sentence)
            for mode in summary.modes {
                let battery = mode.batteryUsedPercent.map { String(format: ", %.1f %% battery", $0) } ?? ""
                print("  \(mode.mode): \(mode.sessions) session\(mode.sessions == 1 ? "" : "s"), \(Int((mode.durationSeconds / 60).rounded())) min, \(mode.frames) frames, \(mode.objectsAnnounced) objects announced\(battery)")
            }
        }
        // The first line is what "Show my usage stats" answers aloud; JSON is spoken only when asked.
        if !json || speech.speakTo != nil || speech.audioDevice != nil { try SpokenOutput.speakReport(sentence, options: speech) }
    }
}
