import ArgumentParser
import AssistCore
import Foundation
import Storage
import SessionControl
import Speech

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Report usage for a day: time per mode, frames, objects announced and battery used where known.",
        discussion: "The first line is the sentence spoken for \"Show my usage stats\"." + DocsPage.vision.seeAlso
    )

    @Option(help: "today, yesterday, or a date such as 2026-11-22.")
    var day = "today"

    @Flag(help: "Print JSON (the sentence and the per-mode totals) for scripts.")
    var json = false

    @OptionGroup(title: "Speech") var speech: SpeechOutputOptions

    func validate() throws {
        do { _ = try UsageDay(day) } catch { throw ValidationError(FailureReport.sentence(for: error)) }
    }

    struct Output: Encodable {
        var sentence: String
        var summary: UsageSummary
    }

    func run() throws {
        let database = try SettingsStorageAccess.open()
        let statistics = UsageStatistics(database: database)
        let period = try UsageDay(day)
        let summary = try statistics.summary(from: period.start, to: period.end)
        let sentence = SpokenReport.usage(summary, period: period.name)
        if json {
            try SettingsStorageAccess.printJSON(Output(sentence: sentence, summary: summary))
        } else {
            print(sentence)
            summary.modeLines.forEach { print($0) }
        }
        // The first line is what "Show my usage stats" answers aloud; JSON is spoken only when asked.
        try SpokenOutput.speakReport(sentence, options: speech.choice, json: json)
    }
}
