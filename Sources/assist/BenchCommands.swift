import ArgumentParser
import AssistCore
import Benchmarks
import Commands
import Foundation

struct BenchCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "commands",
        abstract: "Measures how typed or recognised text is understood: right, wrong action, asked and refused on labelled sets.",
        discussion: """
        Each set is a text file of "<text> => <intent> [slot]" lines (bench/commands/held-out-*.txt, written \
        independently of the language file and never used as examples). A command line is right when the \
        action carried out is the one meant, wrong when another was carried out, asked when only a question \
        was put, refused otherwise; a "none" line must not be acted on. --method patterns is the phrase \
        patterns alone (the baseline); meaning adds the sentence-embedding classifier.

        Example:
          scripts/assist bench commands bench/commands/held-out-commands.txt bench/commands/held-out-none.txt
        """ + DocsPage.benchmarks.seeAlso)

    @Argument(help: ArgumentHelp("Labelled sets.", valueName: "file"))
    var files: [String] = []

    @Option(help: "How text is understood: patterns or meaning.")
    var method: String = "meaning"

    @Option(help: "Where the line comes from: typed, spoken (recogniser unsure) or certain (recogniser sure).")
    var channel: String = "typed"

    @Option(help: ArgumentHelp("Instead of scoring, choose thresholds: with labelled sets, the whole decision on them and this set of non-commands; alone, leave-one-out over the language file's examples and it.", valueName: "file"))
    var tune: String?

    @Flag(help: "Print every line not handled as meant.")
    var mistakes = false

    func validate() throws {
        guard ["patterns", "meaning"].contains(method) else { throw ValidationError("--method must be patterns or meaning.") }
        guard ["typed", "spoken", "certain"].contains(channel) else { throw ValidationError("--channel must be typed, spoken or certain.") }
        guard !files.isEmpty || tune != nil else { throw ValidationError("Name at least one labelled set.") }
    }

    func run() throws {
        var phrases: [LabelledPhrase] = []
        for file in files {
            guard let contents = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw BenchmarkInputError.unreadable(path: file)
            }
            do { phrases += try LabelledPhrase.parse(contents) } catch { throw CommandFailure("\(file): \(error)") }
        }
        let language = try CommandLanguage(language: "en", categories: COCOClasses.names)
        if let tune { return lines(try CommandBenchmark.tune(phrases, language: language, nonCommandsFile: tune)) }
        lines(try CommandBenchmark.run(phrases, language: language, method: method, channel: channel, listsMistakes: mistakes))
    }

    private func lines(_ lines: [String]) { lines.forEach { print($0) } }
}
