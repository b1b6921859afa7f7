import Foundation

/// One line of an evaluation set: what a person typed or said, and what it must do.
///
/// File format (`bench/commands/*.txt`): `<text> => <intent> [slot]`, `#` starts a comment;
/// categories are detector class names joined by `+`, a number is a plain decimal, a language its
/// BCP 47 tag; `none` marks a line that must do nothing.
public struct LabelledPhrase: Sendable, Equatable {
    public var text: String
    /// nil: the line is no command and must not be acted on.
    public var expected: ExpectedCommand?
    /// The commands to carry out after `expected`, in order, when the line holds several
    /// ("louder and slower please" => `volumeUp ; speakSlower`).
    public var then: [ExpectedCommand]

    public init(text: String, expected: ExpectedCommand?, then: [ExpectedCommand] = []) {
        self.text = text
        self.expected = expected
        self.then = then
    }

    /// Reads a whole file; throws naming the first line that cannot be read.
    public static func parse(_ contents: String) throws(LabelledPhraseError) -> [LabelledPhrase] {
        var phrases: [LabelledPhrase] = []
        for (index, raw) in contents.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.components(separatedBy: " => ")
            guard parts.count == 2 else { throw .badLine(number: index + 1, line: line) }
            let text = parts[0].trimmingCharacters(in: .whitespaces)
            let label = parts[1].trimmingCharacters(in: .whitespaces)
            if label == "none" { phrases.append(LabelledPhrase(text: text, expected: nil)); continue }
            var commands: [ExpectedCommand] = []
            for one in label.components(separatedBy: " ; ") {
                guard let command = expectedCommand(one.trimmingCharacters(in: .whitespaces)) else {
                    throw .badLine(number: index + 1, line: line)
                }
                commands.append(command)
            }
            phrases.append(LabelledPhrase(text: text, expected: commands[0], then: Array(commands.dropFirst())))
        }
        return phrases
    }

    /// One command's label: `<intent> [slot]`; nil when it cannot be read.
    private static func expectedCommand(_ label: String) -> ExpectedCommand? {
        let intentName = String(label.prefix { $0 != " " })
        let slot = label.dropFirst(intentName.count).trimmingCharacters(in: .whitespaces)
        guard let intent = CommandIntent(rawValue: intentName) else { return nil }
        var expected = ExpectedCommand(intent: intent)
        switch intent.slot {
        case .category?, .categories?:
            guard !slot.isEmpty else { return nil }
            expected.categories = Set(slot.split(separator: "+").map { String($0) })
        case .fraction?, .number?:
            guard let number = Double(slot) else { return nil }
            expected.number = number
        case .language?:
            guard !slot.isEmpty else { return nil }
            expected.language = slot
        case nil:
            guard slot.isEmpty else { return nil }
        }
        return expected
    }
}

public enum LabelledPhraseError: Error, Equatable, CustomStringConvertible {
    case badLine(number: Int, line: String)

    public var description: String {
        switch self {
        case .badLine(let number, let line): return "Line \(number) is not \"<text> => <intent> [slot]\": \(line)"
        }
    }
}

/// The command a labelled line must give: its intent and slot values.
public struct ExpectedCommand: Sendable, Equatable, CustomStringConvertible {
    public var intent: CommandIntent
    public var categories: Set<String>?
    public var number: Double?
    public var language: String?

    public init(intent: CommandIntent, categories: Set<String>? = nil, number: Double? = nil, language: String? = nil) {
        self.intent = intent
        self.categories = categories
        self.number = number
        self.language = language
    }

    /// Whether `command` does what was meant. Intents that lead to the same action count as the
    /// same ("scan now" and "what is in front of me" both describe the view once).
    public func isMet(by command: Command) -> Bool {
        guard Self.action(of: command.intent) == Self.action(of: intent) else { return false }
        if let categories, Set(command.categories?.categories ?? []) != categories { return false }
        if let number, abs((command.number ?? .nan) - number) > 1e-6 { return false }
        if let language, command.language?.code != language { return false }
        return true
    }

    /// What a command did, in the form a labelled line gives (intents that lead to the same
    /// action as one), so that a spoken command can be compared with its label as text.
    public init(doneBy command: Command) {
        self.init(intent: Self.action(of: command.intent),
                  categories: command.categories.map { Set($0.categories) }, number: command.number, language: command.language?.code)
    }

    /// This expectation in the form `init(doneBy:)` gives.
    public var asDone: ExpectedCommand {
        var done = self
        done.intent = Self.action(of: intent)
        return done
    }

    static func action(of intent: CommandIntent) -> CommandIntent {
        intent == .describeAhead ? .scanNow : intent
    }

    public var description: String {
        var parts = [intent.rawValue]
        if let categories { parts.append(categories.sorted().joined(separator: "+")) }
        if let number { parts.append(String(number)) }
        if let language { parts.append(language) }
        return parts.joined(separator: " ")
    }
}

/// Right, wrong and refused over an evaluation set.
public struct CommandScore: Sendable, Equatable {
    /// Lines that are commands: carried out as meant, carried out as something else, asked
    /// about (a question before acting), or refused.
    public var commands = 0, right = 0, wrong = 0, asked = 0, refused = 0
    /// Lines that are no command, and how many of them were acted on, declined or asked about.
    /// Declined (the reply that the picture cannot tell that) is counted apart from acted on: it
    /// changes nothing and answers nothing, but it is still heard, so both are printed.
    public var nonCommands = 0, nonCommandsActedOn = 0, nonCommandsDeclined = 0, nonCommandsAsked = 0
    /// Each line not handled as meant: text, expected, what happened.
    public var mistakes: [(text: String, expected: String, got: String)] = []

    public init() {}

    public static func == (a: CommandScore, b: CommandScore) -> Bool {
        [a.commands, a.right, a.wrong, a.asked, a.refused, a.nonCommands, a.nonCommandsActedOn, a.nonCommandsDeclined, a.nonCommandsAsked]
            == [b.commands, b.right, b.wrong, b.asked, b.refused, b.nonCommands, b.nonCommandsActedOn, b.nonCommandsDeclined, b.nonCommandsAsked]
    }

    /// Scores `decide` on every line. A question counts as asked: for a command it is not a wrong
    /// action (nothing is done before "yes"), but it is not right either.
    public static func measure(_ phrases: [LabelledPhrase], decide: (String) -> CommandDecision) -> CommandScore {
        measureLines(phrases) { .one(decide($0)) }
    }

    /// As `measure`, for a decision that may carry out several commands in one line: right only
    /// when every command meant is carried out, in order, and nothing else; a line meant as several
    /// and carried out as one is wrong (half done).
    public static func measureLines(_ phrases: [LabelledPhrase], decide: (String) -> LineDecision) -> CommandScore {
        var score = CommandScore()
        for phrase in phrases {
            let decision = decide(phrase.text)
            guard let expected = phrase.expected else {
                score.nonCommands += 1
                switch decision {
                case .one(.act(let command)) where command.intent == .cannotTell:
                    score.nonCommandsDeclined += 1
                    score.mistakes.append((phrase.text, "none", "declined: \(command)"))
                case .one(.act(let command)):
                    score.nonCommandsActedOn += 1
                    score.mistakes.append((phrase.text, "none", "acted: \(command)"))
                case .several(let commands):
                    score.nonCommandsActedOn += 1
                    score.mistakes.append((phrase.text, "none", "acted: \(commands.map(\.description).joined(separator: " ; "))"))
                case .one(.confirm(let question, _)):
                    score.nonCommandsAsked += 1
                    score.mistakes.append((phrase.text, "none", "asked: \(question)"))
                case .one(.refuse): break
                }
                continue
            }
            score.commands += 1
            let meant = [expected] + phrase.then
            let meantText = meant.map(\.description).joined(separator: " ; ")
            func judge(_ done: [Command]) {
                if done.count == meant.count, zip(meant, done).allSatisfy({ $0.isMet(by: $1) }) { score.right += 1 } else {
                    score.wrong += 1
                    score.mistakes.append((phrase.text, meantText, "WRONG: \(done.map(\.description).joined(separator: " ; "))"))
                }
            }
            switch decision {
            case .one(.act(let command)): judge([command])
            case .several(let commands): judge(commands)
            case .one(.confirm(let question, _)):
                score.asked += 1
                score.mistakes.append((phrase.text, meantText, "asked: \(question)"))
            case .one(.refuse(let sentence)):
                score.refused += 1
                score.mistakes.append((phrase.text, meantText, "refused: \(sentence)"))
            }
        }
        return score
    }

    public var rightShare: Double { commands == 0 ? 0 : Double(right) / Double(commands) }
    public var wrongShare: Double { commands == 0 ? 0 : Double(wrong) / Double(commands) }
    public var nonCommandsActedOnShare: Double { nonCommands == 0 ? 0 : Double(nonCommandsActedOn) / Double(nonCommands) }
}
