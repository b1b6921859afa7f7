import ArgumentParser
import AssistCore
import Foundation

@main
struct Assist: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assist",
        abstract: "Offline assistive perception: describes what a camera or picture shows, and fits sound to a hearing loss.",
        subcommands: [See.self, Say.self, Eval.self, Hear.self, SettingsCommand.self, HistoryCommand.self,
                      StatsCommand.self, BackupCommand.self, RxCommand.self, CamerasCommand.self, Devices.self, Bench.self]
    )

    /// Errors reach the user as one sentence: ours without ArgumentParser's decoration, its own
    /// (bad options) with usage, as it formats them.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            FileHandle.standardError.write(Data("\(failure.message)\n".utf8))
            Foundation.exit(failure.exitCode)
        } catch let error as any UserFacingError {
            FileHandle.standardError.write(Data("\(error.userMessage)\n".utf8))
            Foundation.exit(1)
        } catch {
            exit(withError: error)
        }
    }
}
