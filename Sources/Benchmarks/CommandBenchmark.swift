import AssistCore
import Commands
import Foundation

/// `assist bench commands`: how typed or recognised text is understood on labelled sets (right,
/// wrong action, asked, refused), and the act thresholds' trade-off for tuning.
public enum CommandBenchmark {
    /// Scores `phrases` with `method` (patterns, or meaning: the sentence-embedding classifier) as
    /// if they came from `channel` (typed, spoken or certain); returns the lines printed.
    public static func run(_ phrases: [LabelledPhrase], language: CommandLanguage, method: String, channel: String,
                           listsMistakes: Bool) throws -> [String] {
        var lines: [String] = []
        let decide: (String) -> LineDecision
        var timings: [Double] = []
        switch method {
        case "patterns":
            decide = { .one(language.decideByPatterns($0)) }
        default:
            let understanding = try CommandUnderstanding.load(language: language)
            let input: InputChannel = channel == "typed" ? .typed : .spoken(certain: channel == "certain")
            decide = { text in
                let start = ContinuousClock.now
                // Several commands in one line are split as the command controller splits them.
                let decision = understanding.decideLine(text, channel: input)
                let elapsed = ContinuousClock.now - start
                timings.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
                return decision
            }
        }
        let score = CommandScore.measureLines(phrases, decide: decide)
        if listsMistakes {
            for mistake in score.mistakes { lines.append("\(mistake.text)\t→ \(mistake.got)\t(meant \(mistake.expected))") }
        }
        func percent(_ share: Double) -> String { String(format: "%.1f %%", share * 100) }
        lines.append("method \(method), channel \(channel)")
        lines.append("commands: \(score.commands); right \(score.right) (\(percent(score.rightShare))), wrong action \(score.wrong) (\(percent(score.wrongShare))), asked \(score.asked), refused \(score.refused)")
        lines.append("non-commands: \(score.nonCommands); acted on \(score.nonCommandsActedOn) (\(percent(score.nonCommandsActedOnShare))), declined as not telling from the picture \(score.nonCommandsDeclined), asked \(score.nonCommandsAsked)")
        if !timings.isEmpty {
            let sorted = timings.sorted()
            lines.append(String(format: "time per line: median %.2f ms, 95th percentile %.2f ms (%d lines, debug or release as built)",
                         sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 95 / 100)], sorted.count))
        }
        return lines
    }

    /// `--tune`: with labelled lines, the whole decision on them and the non-commands of
    /// `nonCommandsFile` (`tuneOnSets`); without, leave-one-out over the examples (`tuneThresholds`).
    public static func tune(_ phrases: [LabelledPhrase], language: CommandLanguage, nonCommandsFile: String) throws -> [String] {
        guard !phrases.isEmpty else { return try tuneThresholds(language: language, nonCommandsFile: nonCommandsFile) }
        guard let contents = try? String(contentsOfFile: nonCommandsFile, encoding: .utf8) else {
            throw BenchmarkInputError.unreadable(path: nonCommandsFile)
        }
        return try tuneOnSets(phrases + LabelledPhrase.parse(contents), language: language)
    }

    /// For a grid of act thresholds and margins, the whole decision (patterns, meaning, values)
    /// on labelled development lines and on non-commands: right, wrong, asked, and non-commands
    /// acted on. The chosen setting is the one with the most right among those that act on no
    /// non-command and carry out at most 1 % of the commands wrongly (a wrong action is worse
    /// than a question); of equals, the higher threshold.
    public static func tuneOnSets(_ phrases: [LabelledPhrase], language: CommandLanguage) throws -> [String] {
        let loaded = try CommandUnderstanding.load(language: language)
        guard let classifier = loaded.classifier else { return [] }
        var readings: [String: CommandUnderstanding.Reading] = [:]
        for phrase in phrases where readings[phrase.text] == nil { readings[phrase.text] = loaded.reading(phrase.text) }
        var lines = ["act similarity, margin: commands right / wrong / asked (\(phrases.filter { $0.expected != nil }.count)), non-commands acted on / asked (\(phrases.filter { $0.expected == nil }.count))"]
        var chosen: (right: Int, line: String)?
        for act in stride(from: Float(0.55), through: 0.801, by: 0.01) {
            for margin in [Float(0), 0.02, 0.04, 0.06, 0.08] {
                var thresholds = loaded.thresholds
                thresholds.actSimilarity = act
                thresholds.margin = margin
                let understanding = CommandUnderstanding(language: language, classifier: classifier, thresholds: thresholds)
                let score = CommandScore.measure(phrases) { understanding.decide(readings[$0]!, channel: .typed) }
                let line = String(format: "%.2f, %.2f: %d / %d / %d, %d / %d", act, margin, score.right, score.wrong, score.asked,
                                  score.nonCommandsActedOn, score.nonCommandsAsked)
                lines.append(line)
                if score.nonCommandsActedOn == 0, score.wrong * 100 <= score.commands, score.right >= (chosen?.right ?? -1) {
                    chosen = (score.right, line)
                }
            }
        }
        lines.append("chosen: " + (chosen?.line ?? "none meets the rule"))
        return lines
    }

    /// For a grid of act thresholds and margins, the share of held-in examples acted on rightly
    /// and wrongly (leave-one-out) and the share of tuning non-commands acted on.
    public static func tuneThresholds(language: CommandLanguage, nonCommandsFile: String) throws -> [String] {
        var lines: [String] = []
        guard let contents = try? String(contentsOfFile: nonCommandsFile, encoding: .utf8) else {
            throw BenchmarkInputError.unreadable(path: nonCommandsFile)
        }
        let nonCommands = try LabelledPhrase.parse(contents).filter { $0.expected == nil }.map(\.text)
        let understanding = try CommandUnderstanding.load(language: language)
        guard let classifier = understanding.classifier else { return lines }
        let examples = classifier.leaveOneOut()
        let others = try nonCommands.map { ($0, try classifier.rank($0)) }
        let exampleScores = examples.map { ($0.intent, understanding.choose(from: $0.ranking, words: understanding.words($0.text))) }
        let otherScores = others.map { understanding.choose(from: $0.1, words: understanding.words($0.0)) }
        lines.append("act similarity, margin: examples right / wrong (leave-one-out, \(examples.count)), non-commands acted on (\(others.count))")
        for act in stride(from: Float(0.40), through: 0.80, by: 0.05) {
            for margin in [Float(0), 0.02, 0.04, 0.06, 0.08, 0.1] {
                var right = 0, wrong = 0
                for (intent, score) in exampleScores where score.similarity >= act && score.margin >= margin {
                    if ExpectedCommand(intent: intent).isMet(by: Command(score.intent)) { right += 1 } else { wrong += 1 }
                    _ = score
                }
                let acted = otherScores.filter { $0.similarity >= act && $0.margin >= margin }.count
                lines.append(String(format: "%.2f, %.2f: %5.1f %% / %4.1f %%, %4.1f %%", act, margin,
                             Double(right) * 100 / Double(examples.count), Double(wrong) * 100 / Double(examples.count),
                             Double(acted) * 100 / Double(max(1, others.count))))
            }
        }
        let sims = otherScores.map(\.similarity).sorted()
        lines.append(String(format: "non-commands' best similarity: median %.2f, max %.2f", sims[sims.count / 2], sims.last ?? 0))
        return lines
    }
}
