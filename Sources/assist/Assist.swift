import ArgumentParser
import AssistCore
import Foundation

@main
struct Assist: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assist",
        abstract: "Offline assistive perception: describes what a camera or picture shows, and fits sound to a hearing loss.",
        discussion: DocsPage.index,
        version: Release.nameAndVersion,
        subcommands: [See.self, Say.self, Eval.self, Hear.self, SettingsCommand.self, HistoryCommand.self,
                      StatsCommand.self, BackupCommand.self, RxCommand.self, CamerasCommand.self, Devices.self, Bench.self,
                      ConsoleCommand.self, CtlCommand.self, Listen.self, Wake.self,
                      Read.self, ColourCommand.self, LightCommand.self, ServeCommand.self]
    )

    /// Errors reach the user as one sentence: ours without ArgumentParser's decoration, and its
    /// own (a bad option, or one of our errors thrown from a command's `validate()`, which
    /// ArgumentParser wraps) as its message alone, without the "Error:" prefix and usage lines.
    static func main() async {
        let parsed: any ParsableCommand
        do {
            parsed = try parseAsRoot()
        } catch {
            // --help and --version arrive here as errors with a successful exit code.
            guard exitCode(for: error) != .success else { exit(withError: error) }
            FileHandle.standardError.write(Data("\(message(for: error))\n".utf8))
            Foundation.exit(exitCode(for: error).rawValue)
        }
        do {
            var command = parsed
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch where String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") {
            // ArgumentParser's own as it words them: exit codes, bad usage (64), --help from `run()`.
            exit(withError: error)
        } catch {
            // The libraries' typed errors and our own, as one sentence with the status of their
            // kind (`FailureReport`); anything else a command lets through fails with status 1.
            FileHandle.standardError.write(Data("\(FailureReport.sentence(for: error))\n".utf8))
            Foundation.exit(FailureReport.status(of: error).rawValue)
        }
    }
}
