import ArgumentParser

@main
struct Assist: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assist",
        abstract: "Offline assistive perception: describes what a camera or picture shows, and fits sound to a hearing loss.",
        subcommands: [SettingsCommand.self, HistoryCommand.self, StatsCommand.self, BackupCommand.self]
    )
}
