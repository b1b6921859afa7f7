import ArgumentParser
import Foundation
import SessionControl
import Storage
import AssistCore

struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show, change or reset your settings (detection, speech, feedback, scanning, camera, units, history).",
        discussion: """
            Settings are kept in $XDG_DATA_HOME/assistivekit and apply at once to a running `assist see`.
            Every value is checked before it is stored; `assist settings show` lists each setting with what it accepts.
            """ + DocsPage.vision.seeAlso,
        subcommands: [Show.self, Set.self, Reset.self]
    )

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show every setting, or one, with its value and what it accepts.", discussion: DocsPage.vision.reference)

        @Argument(help: "A setting's name, such as speech.rateWordsPerMinute; all settings when left out.")
        var key: String?

        @Flag(help: "Print JSON (key, value, default, changed, allowed, help) for scripts.")
        var json = false

        func validate() throws {
            if let key { _ = try SettingsSchema.definition(for: key) }
        }

        func run() throws { try SettingsStorageAccess.showSettings(key: key, json: json) }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change one setting; the value is checked first and nothing is stored if it is not allowed.",
            discussion: """
                Examples:
                  assist settings set detection.confidenceThreshold 0.6
                  assist settings set detection.ignoredCategories "bird, kite"
                  assist settings set detection.hazards "vehicles:pulse:0.8, dog:chirp:0.5"
                  assist settings set feedback.hapticsEnabled off
                Lists are comma-separated (or JSON); an empty value or "none" clears a list.
                """ + DocsPage.vision.seeAlso
        )

        @Argument(help: "The setting's name, such as detection.confidenceThreshold.")
        var key: String

        // Every word not taken by --json, including ones that start with "-": otherwise a negative
        // number (camera.fieldOfViewDegrees -5) was taken for an unknown option (issue 16).
        @Argument(parsing: .allUnrecognized, help: "The new value: a number, on/off, a name, or a comma-separated list.")
        var words: [String] = []

        /// The value as typed; words given without quotes are joined by single spaces.
        var value: String { words.joined(separator: " ") }

        @Flag(help: "Print the stored value as JSON.")
        var json = false

        func validate() throws {
            _ = try SettingsSchema.definition(for: key)
            guard !words.isEmpty else { throw ValidationError("Give the new value for \(key) after its name.") }
        }

        func run() throws { try SettingsStorageAccess.setSetting(key, to: value, json: json) }
    }

    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Return one setting, or all with --all, to its default.", discussion: DocsPage.vision.reference)

        @Argument(help: "The setting to reset.")
        var key: String?

        @Flag(help: "Reset every setting.")
        var all = false

        func validate() throws {
            guard (key == nil) != !all else {
                throw ValidationError(all ? "Give either a setting's name or --all, not both." : "Give a setting's name, or --all to reset every setting.")
            }
            if let key { _ = try SettingsSchema.definition(for: key) }
        }

        func run() throws { try SettingsStorageAccess.resetSettings(key: key) }
    }
}
