import ArgumentParser
import Foundation
import Storage

#if canImport(Glibc)
import Glibc
import SessionControl
#endif

struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Export or import your settings (and history if asked) as one encrypted, integrity-checked file.",
        discussion: """
            The file is encrypted with a key derived from a passphrase (scrypt, AES-256-GCM); a changed or cut-short \
            file is refused and nothing is imported. The passphrase comes from --passphrase-file, else the \
            ASSIST_BACKUP_PASSPHRASE environment variable, else it is asked for in the terminal.
            """,
        subcommands: [Export.self, Import.self]
    )

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write your settings (and history with --include-history) to FILE.")

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
            abstract: "Replace your settings (and history, if the backup has it) with those in FILE.")

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
            let summary = try Backup.importBackup(from: URL(fileURLWithPath: file), into: try SettingsStorageAccess.open(),
                                                  passphrase: passphrase, validator: SettingsStorageAccess.validator())
            let history = summary.historyEntries.map { " and \($0) history entr\($0 == 1 ? "y" : "ies")" } ?? ""
            print("Imported \(summary.changedSettings) changed setting\(summary.changedSettings == 1 ? "" : "s")\(history) from \(file).")
        }
    }
}

enum BackupPassphrase {
    static func read(file: String?, confirm: Bool) throws -> String {
        if let file {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ValidationError("The passphrase file \(file) does not exist or is not readable.")
            }
            return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        }
        if let fromEnvironment = ProcessInfo.processInfo.environment["ASSIST_BACKUP_PASSPHRASE"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        guard isatty(STDIN_FILENO) != 0 else {
            throw ValidationError("No passphrase: give --passphrase-file, set ASSIST_BACKUP_PASSPHRASE, or run in a terminal.")
        }
        let first = prompt("Backup passphrase: ")
        if confirm, prompt("Repeat the passphrase: ") != first {
            throw ValidationError("The two passphrases differ; nothing was written.")
        }
        return first
    }

    /// Reads a line with echo off (getpass), so the passphrase never shows on screen.
    private static func prompt(_ text: String) -> String {
        guard let pointer = getpass(text) else { return "" }
        return String(cString: pointer)
    }
}
