import Foundation
import TestSupport

/// One `assist …` command line shown in README.md or a page of docs/: in a code block (a line of
/// its own, `$ ` prompts and `\` continuations allowed) or in a code span of the prose.
struct DocExample: Sendable, CustomStringConvertible {
    /// "docs/vision.md:27".
    var place: String
    /// The words after `assist` (or `scripts/assist`), as a shell would split them.
    var arguments: [String]
    /// A line of a code block, to be copied whole; a code span of the prose may name an option
    /// without its value ("scripted with `assist see --at`").
    var isCommandLine: Bool
    var description: String { "\(place): assist \(arguments.joined(separator: " "))" }
}

/// A fenced code block of a documentation page, with the line each of its lines starts on.
struct DocCodeBlock: Sendable {
    var page: String
    var language: String
    var lines: [(number: Int, text: String)]
}

/// README.md and docs/*.md, read as a user would read them for commands to copy.
enum DocPages {
    /// README.md, then every page of docs/ by name.
    static var all: [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: SharedFiles.checkout.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    static func text(_ page: String) -> String {
        (try? String(contentsOf: SharedFiles.checkout.appendingPathComponent(page), encoding: .utf8)) ?? ""
    }

    /// Every fenced code block of every page.
    static func codeBlocks() -> [DocCodeBlock] {
        all.flatMap { page -> [DocCodeBlock] in
            var blocks: [DocCodeBlock] = []
            var open: DocCodeBlock?
            for (index, line) in text(page).components(separatedBy: "\n").enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("```") {
                    if let finished = open { blocks.append(finished); open = nil }
                    else { open = DocCodeBlock(page: page, language: String(trimmed.dropFirst(3)), lines: []) }
                } else if open != nil {
                    open!.lines.append((index + 1, line))
                }
            }
            return blocks
        }
    }

    /// The command lines of a code block, `\` continuations joined, `$ ` prompts taken off, each
    /// with the line it starts on; comments stay (`ShellWords` drops them). In a block of output
    /// (`text`) only the lines after a `$ ` prompt are commands; the rest is what they printed.
    static func commandLines(of block: DocCodeBlock) -> [(number: Int, text: String)] {
        let promptedOnly = block.language == "text" || block.language == "console"
        var result: [(Int, String)] = []
        var pending: (Int, String)?
        for (number, raw) in block.lines {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if pending == nil {
                if line.hasPrefix("$ ") { line.removeFirst(2) } else if promptedOnly { continue }
            }
            let continues = line.hasSuffix("\\")
            if continues { line.removeLast() }
            if let (start, text) = pending { pending = (start, text + " " + line) } else { pending = (number, line) }
            if !continues { result.append(pending!); pending = nil }
        }
        if let pending { result.append(pending) }
        return result
    }

    /// Every `assist …` example: code block lines and code spans of the prose.
    static func examples() -> [DocExample] {
        var examples: [DocExample] = []
        for block in codeBlocks() {
            for (number, line) in commandLines(of: block) {
                if let arguments = assistArguments(ShellWords.split(line)) {
                    examples.append(DocExample(place: "\(block.page):\(number)", arguments: arguments, isCommandLine: true))
                }
            }
        }
        for page in all {
            var inBlock = false
            for (index, line) in text(page).components(separatedBy: "\n").enumerated() {
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inBlock.toggle(); continue }
                guard !inBlock else { continue }
                for span in codeSpans(in: line) {
                    if let arguments = assistArguments(ShellWords.split(span)) {
                        examples.append(DocExample(place: "\(page):\(index + 1)", arguments: arguments, isCommandLine: false))
                    }
                }
            }
        }
        return examples
    }

    /// The arguments after `assist` or `scripts/assist`, past any `NAME=value` environment words;
    /// nil when the words are not an `assist` command.
    static func assistArguments(_ words: [String]) -> [String]? {
        let command = words.drop { $0.range(of: #"^[A-Z_][A-Z0-9_]*="#, options: .regularExpression) != nil }
        guard let first = command.first, first == "assist" || first == "scripts/assist" else { return nil }
        // "…" stands for "and so on" in prose and comments, not for an argument.
        return command.dropFirst().filter { $0 != "…" && $0 != "..." }
    }

    /// The contents of each `code span` on a line.
    static func codeSpans(in line: String) -> [String] {
        let parts = line.components(separatedBy: "`")
        return stride(from: 1, to: parts.count - 1, by: 2).map { parts[$0] }
    }
}

/// Splits a command line into words as a POSIX shell does for the simple lines documentation
/// shows: blanks separate words, '…' and "…" quote, a backslash escapes, `#` at a word's start
/// begins a comment. Enough to tell an option from its value; not a shell.
enum ShellWords {
    static func split(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped { word.append(character); escaped = false; inWord = true; continue }
            if let open = quote {
                if character == open { quote = nil } else if character == "\\" && open == "\"" { escaped = true } else { word.append(character) }
                continue
            }
            switch character {
            case "\\": escaped = true
            case "'", "\"": quote = character; inWord = true
            case " ", "\t":
                if inWord { words.append(word); word = ""; inWord = false }
            case "#" where !inWord:
                return words
            default: word.append(character); inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }
}

/// The `assist` command tree as the binary itself describes it (`--experimental-dump-help`,
/// swift-argument-parser's machine-readable help): every subcommand and every option, as parsed.
struct CommandTree: Decodable, Sendable {
    struct Name: Decodable, Sendable { var kind: String; var name: String }
    struct Argument: Decodable, Sendable {
        var kind: String
        var names: [Name]?
        var isRepeating: Bool?
    }
    struct Command: Decodable, Sendable {
        var commandName: String
        var abstract: String?
        var discussion: String?
        var defaultSubcommand: String?
        var subcommands: [Command]?
        var arguments: [Argument]?
    }
    var command: Command

    /// Read from the built binary, once per test run.
    static let dumped: Result<CommandTree, any Error> = Result(catching: {
        let output = try AssistBinary.run(["--experimental-dump-help"], input: .nothing)
        guard output.status == 0 else { throw ToolFailure(message: "assist --experimental-dump-help: \(output.standardError)") }
        return try JSONDecoder().decode(CommandTree.self, from: Data(output.standardOutput.utf8))
    })

    /// Every command with its path ("rx import"), the root first.
    var allCommands: [(path: String, command: Command)] {
        func walk(_ command: Command, _ path: String) -> [(String, Command)] {
            [(path, command)] + (command.subcommands ?? []).flatMap { walk($0, path.isEmpty ? $0.commandName : "\(path) \($0.commandName)") }
        }
        return walk(command, "")
    }

    /// Why `arguments` would not parse as written, or nil when every word is a subcommand, an
    /// option or flag of the command it is given to (with its value), or a positional argument
    /// the command takes. Values are not checked: a doc may show a placeholder such as FILE.
    /// An option at the end without its value is wrong only in a `complete` command line.
    func problem(with arguments: [String], complete: Bool = true) -> String? {
        var command = self.command
        var path = "assist"
        var positionals = 0
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if word == "--" { break }
            if word.hasPrefix("-"), word.count > 1, Double(word) == nil {
                let isLong = word.hasPrefix("--")
                let name = isLong ? String(word.dropFirst(2).prefix { $0 != "=" }) : String(word.dropFirst())
                if ["help", "h", "version", "experimental-dump-help"].contains(name) { continue }
                guard let argument = Self.argument(named: name, long: isLong, in: command) else {
                    // An option of the default subcommand ("assist hear talk.wav -o aided.wav").
                    if positionals == 0, let fallback = defaultSubcommand(of: command) {
                        command = fallback; path += " \(fallback.commandName)"; index -= 1; continue
                    }
                    return "\(path) has no option \(isLong ? "--" : "-")\(name)"
                }
                if argument.kind == "option" && !word.contains("=") {
                    guard index < arguments.count else { return complete ? "\(path): \(word) needs a value" : nil }
                    index += 1
                }
                continue
            }
            if positionals == 0, let sub = command.subcommands?.first(where: { $0.commandName == word }) {
                command = sub; path += " \(word)"; continue
            }
            if positionals == 0, let fallback = defaultSubcommand(of: command) {
                command = fallback; path += " \(fallback.commandName)"; index -= 1; continue
            }
            let declared = (command.arguments ?? []).filter { $0.kind == "positional" }
            positionals += 1
            if !declared.contains(where: { $0.isRepeating == true }) && positionals > declared.count {
                return declared.isEmpty && !(command.subcommands ?? []).isEmpty
                    ? "\(path) has no subcommand \(word)"
                    : "\(path) takes \(declared.count) argument(s); \(word) is one too many"
            }
        }
        return nil
    }

    private func defaultSubcommand(of command: Command) -> Command? {
        guard let name = command.defaultSubcommand else { return nil }
        return command.subcommands?.first { $0.commandName == name }
    }

    private static func argument(named name: String, long: Bool, in command: Command) -> Argument? {
        (command.arguments ?? []).first { argument in
            argument.kind != "positional" && (argument.names ?? []).contains {
                long ? ($0.kind == "long" && $0.name == name) : ($0.kind == "short" && $0.name == name)
            }
        }
    }
}
