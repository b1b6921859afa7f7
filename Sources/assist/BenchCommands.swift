import ArgumentParser
import AssistCore
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
        """)

    @Argument(help: ArgumentHelp("Labelled sets.", valueName: "file"))
    var files: [String] = []

    @Option(help: "How text is understood: patterns or meaning.")
    var method: String = "meaning"

    @Option(help: "Where the line comes from: typed, spoken (recogniser unsure) or certain (recogniser sure).")
    var channel: String = "typed"

    @Option(help: ArgumentHelp("Instead of scoring, choose thresholds: leave-one-out over the language file's examples and this set of non-commands.", valueName: "file"))
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
                throw CommandFailure("\(file) could not be read.")
            }
            do { phrases += try LabelledPhrase.parse(contents) } catch { throw CommandFailure("\(file): \(error)") }
        }
        let language = try CommandLanguage(language: "en", categories: COCOClasses.names)
        if let tune { return try tuneThresholds(language: language, nonCommandsFile: tune) }
        let decide: (String) -> CommandDecision
        var timings: [Double] = []
        switch method {
        case "patterns":
            decide = language.decideByPatterns
        default:
            let understanding = try CommandUnderstanding.load(language: language)
            let input: InputChannel = channel == "typed" ? .typed : .spoken(certain: channel == "certain")
            decide = { text in
                let start = ContinuousClock.now
                let decision = understanding.decide(text, channel: input)
                let elapsed = ContinuousClock.now - start
                timings.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
                return decision
            }
        }
        let score = CommandScore.measure(phrases, decide: decide)
        if mistakes {
            for mistake in score.mistakes { print("\(mistake.text)\t→ \(mistake.got)\t(meant \(mistake.expected))") }
        }
        func percent(_ share: Double) -> String { String(format: "%.1f %%", share * 100) }
        print("method \(method), channel \(channel)")
        print("commands: \(score.commands); right \(score.right) (\(percent(score.rightShare))), wrong action \(score.wrong) (\(percent(score.wrongShare))), asked \(score.asked), refused \(score.refused)")
        print("non-commands: \(score.nonCommands); acted on \(score.nonCommandsActedOn) (\(percent(score.nonCommandsActedOnShare))), asked \(score.nonCommandsAsked)")
        if !timings.isEmpty {
            let sorted = timings.sorted()
            print(String(format: "time per line: median %.2f ms, 95th percentile %.2f ms (%d lines, debug or release as built)",
                         sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 95 / 100)], sorted.count))
        }
    }

    /// Prints, for a grid of act thresholds and margins, the share of held-in examples acted on
    /// rightly and wrongly (leave-one-out) and the share of tuning non-commands acted on.
    private func tuneThresholds(language: CommandLanguage, nonCommandsFile: String) throws {
        guard let contents = try? String(contentsOfFile: nonCommandsFile, encoding: .utf8) else {
            throw CommandFailure("\(nonCommandsFile) could not be read.")
        }
        let nonCommands = try LabelledPhrase.parse(contents).filter { $0.expected == nil }.map(\.text)
        let understanding = try CommandUnderstanding.load(language: language)
        guard let classifier = understanding.classifier else { return }
        let examples = classifier.leaveOneOut()
        let others = try nonCommands.map { ($0, try classifier.rank($0)) }
        let exampleScores = examples.map { ($0.intent, understanding.choose(from: $0.ranking, words: understanding.words($0.text))) }
        let otherScores = others.map { understanding.choose(from: $0.1, words: understanding.words($0.0)) }
        print("act similarity, margin: examples right / wrong (leave-one-out, \(examples.count)), non-commands acted on (\(others.count))")
        for act in stride(from: Float(0.40), through: 0.80, by: 0.05) {
            for margin in [Float(0), 0.02, 0.04, 0.06, 0.08, 0.1] {
                var right = 0, wrong = 0
                for (intent, score) in exampleScores where score.similarity >= act && score.margin >= margin {
                    if ExpectedCommand(intent: intent).isMet(by: Command(score.intent)) { right += 1 } else { wrong += 1 }
                    _ = score
                }
                let acted = otherScores.filter { $0.similarity >= act && $0.margin >= margin }.count
                print(String(format: "%.2f, %.2f: %5.1f %% / %4.1f %%, %4.1f %%", act, margin,
                             Double(right) * 100 / Double(examples.count), Double(wrong) * 100 / Double(examples.count),
                             Double(acted) * 100 / Double(max(1, others.count))))
            }
        }
        let sims = otherScores.map(\.similarity).sorted()
        print(String(format: "non-commands' best similarity: median %.2f, max %.2f", sims[sims.count / 2], sims.last ?? 0))
    }
}
