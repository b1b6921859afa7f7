import ArgumentParser
import AssistCore
import Foundation
import SessionControl
import Storage
import Speech

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List, filter, search or clear what was announced (label, confidence, direction, distance, mode, time; never images).",
        discussion: """
            History is encrypted on disk and deleted automatically after the historyRetentionHours setting (24 hours by default).
            Times are durations back from now (30m, 2h, 1d) or ISO 8601 dates (2026-11-22 or 2026-11-22T10:00:00Z).
            """ + DocsPage.vision.seeAlso,
        subcommands: [List.self, Recent.self, Clear.self],
        defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List announced detections, oldest first, optionally filtered.", discussion: DocsPage.vision.reference)

        @Option(help: "Only this category, such as person.")
        var label: String?

        @Option(help: "Only detections from this time on (30m, 2h, 1d, or an ISO 8601 date).")
        var since: String?

        @Option(help: "Only detections before this time (same forms as --since).")
        var until: String?

        @Option(help: "Only detections whose label, direction or mode contains this text.")
        var search: String?

        @Option(help: "At most this many (the newest).")
        var limit: Int?

        @Flag(help: "Print JSON for scripts.")
        var json = false

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more.") }
            do { _ = try HistoryTime.range(since: since, until: until) } catch { throw ValidationError(FailureReport.sentence(for: error)) }
        }

        func run() throws {
            try SettingsStorageAccess.printHistory(label: label, since: since, until: until, search: search, limit: limit, json: json)
        }
    }

    struct Recent: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Say what was detected recently: the sentence spoken for \"What did you detect recently?\".",
            discussion: DocsPage.vision.reference)

        @Option(help: "How many detections (1 to 100).")
        var count = 10

        @Flag(help: "Print JSON (the sentence and the detections) for scripts.")
        var json = false

        @OptionGroup(title: "Speech") var speech: SpeechOutputOptions

        func validate() throws {
            guard (1...100).contains(count) else { throw ValidationError("--count must be from 1 to 100.") }
        }

        func run() throws {
            let sentence = try SettingsStorageAccess.printRecentHistory(count: count, json: json)
            try SpokenOutput.speakReport(sentence, options: speech.choice, json: json)
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete the history, or only what is older than --before.", discussion: DocsPage.vision.reference)

        @Option(help: "Delete only detections before this time (30m, 2h, 1d, or an ISO 8601 date).")
        var before: String?

        func validate() throws {
            do { _ = try before.map { try HistoryTime.parse($0, bound: .before) } } catch { throw ValidationError(FailureReport.sentence(for: error)) }
        }

        func run() throws { try SettingsStorageAccess.clearHistory(before: before) }
    }
}
