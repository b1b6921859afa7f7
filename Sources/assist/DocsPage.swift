/// The page of the documentation that explains a command with examples, named at the end of the
/// command's `--help` so that a user who needs more than the options knows where to read. One
/// definition: a page renamed is renamed here (`DocExamplesTests` checks every page a command
/// names exists).
enum DocsPage: String, CaseIterable {
    case vision = "docs/vision.md"
    case commands = "docs/commands.md"
    case hearing = "docs/hearing.md"
    case webApp = "docs/web-app.md"
    case models = "docs/models.md"
    case reliability = "docs/RELIABILITY.md"
    case architecture = "docs/architecture.md"
    case benchmarks = "BENCHMARKS.md"

    /// What a reader finds on the page, for the list in `assist --help`.
    var subject: String {
        switch self {
        case .vision: return "pictures, live guidance, modes, settings, speech"
        case .commands: return "commands by voice, keyboard, socket, keys; the full list"
        case .hearing: return "fitting, live listening, prescriptions, audiologists"
        case .webApp: return "the web app (assist serve)"
        case .models: return "each model, its source and licence, using your own"
        case .reliability: return "what happens when something fails; exit statuses"
        case .architecture: return "for contributors: the stages, adding a mode or command"
        case .benchmarks: return "exact measurements, with the commands that made them"
        }
    }

    /// The line that ends a command's help.
    var reference: String { "More, with examples: \(rawValue) in the AssistiveKit repository." }

    /// `reference` as a paragraph of its own after a command's own discussion.
    var seeAlso: String { "\n\n" + reference }

    /// The discussion of `assist --help`: every page and what it holds.
    static var index: String {
        "Documentation, in the AssistiveKit repository: README.md (start here), then\n"
            + allCases.map { "  \($0.rawValue): \($0.subject)" }.joined(separator: "\n")
    }
}
