import ArgumentParser
import AssistCore
import Foundation
import SessionControl
import Storage

struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Export or import your settings (and history if asked) as one encrypted, integrity-checked file.",
        discussion: """
            The file is encrypted with a key derived from a passphrase (scrypt, AES-256-GCM); a changed or cut-short \
            file is refused and nothing is imported. The passphrase comes from --passphrase-file, else the \
            ASSIST_BACKUP_PASSPHRASE environment variable, else it is asked for in the terminal.
            """ + DocsPage.vision.seeAlso,
        subcommands: [Export.self, Import.self]
    )

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write your settings (and history with --include-history) to FILE.", discussion: DocsPage.vision.reference)

        @Argument(help: "The backup file to write (replaced if it exists).")
        var file: String

        @Flag(help: "Also include the detection history.")
        var includeHistory = false

        @Option(help: "A file whose first line is the passphrase.")
        var passphraseFile: String?

        func run() throws {
            let passphrase = try BackupPassphrase.read(file: passphraseFile, confirm: true)
            let summary = try Backup.export(from: try SettingsStorageAccess.open(), to: URL(fileURLWithPath: file),
                                            passphrase: passphrase, includeHistory: includeHistory)
            let history = summary.historyEntries.map { " and \($0) history entr\($0 == 1 ? "y" : "ies")" } ?? ""
            print("Exported \(summary.changedSettings) changed setting\(summary.changedSettings == 1 ? "" : "s")\(history) to \(file).")
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace your settings (and history, if the backup has it) with those in FILE.",
            discussion: DocsPage.vision.reference)

        @Argument(help: "The backup file to read.")
        var file: String

        @Option(help: "A file whose first line is the passphrase.")
        var passphraseFile: String?

        func validate() throws {
            guard FileManager.default.isReadableFile(atPath: file) else {
                throw ValidationError("The backup \(file) does not exist or is not readable.")
            }
        }

        func run() throws {
            let passphrase = try BackupPassphrase.read(file: passphraseFile, confirm: false)
            let summary = try Backup.importBackup(from: URL(fileURLWithPath: file), into: try SettingsStorageAccess.open(toChange: true),
                                                  passphrase: passphrase, validator: SettingsStorageAccess.validator())
            let history = summary.historyEntries.map { " and \($0) history entr\($0 == 1 ? "y" : "ies")" } ?? ""
            print("Imported \(summary.changedSettings) changed setting\(summary.changedSettings == 1 ? "" : "s")\(history) from \(file).")
        }
    }
}

/// The backup's passphrase; a failure is bad usage (exit 64), as ArgumentParser reports it.
enum BackupPassphrase {
    static func read(file: String?, confirm: Bool) throws -> String {
        do {
            return try PassphraseSource(file: file, environmentVariable: "ASSIST_BACKUP_PASSPHRASE")
                .read(prompt: "Backup passphrase: ", repeatPrompt: confirm ? "Repeat the passphrase: " : nil,
                      mismatch: "The two passphrases differ; nothing was written.")
        } catch { throw ValidationError(error.userMessage) }
    }
}
