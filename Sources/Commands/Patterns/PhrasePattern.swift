/// One phrase pattern from a language file, parsed: `find [a | an | the] {category}`,
/// `(increase | raise) [the] volume`. The same tree is matched against what the user said and
/// expanded into the concrete phrases the recogniser favours and the benchmark says.
indirect enum PhrasePattern: Sendable, Equatable {
    case word(String)
    case slot(SlotKind)
    case sequence([PhrasePattern])
    /// One of several; an optional part is a choice that includes the empty sequence.
    case choice([PhrasePattern])

    /// One concrete way to say a pattern: its words and slots in order.
    enum Element: Sendable, Equatable {
        case word(String)
        case slot(SlotKind)
    }

    /// Every concrete phrase the pattern allows.
    var expansions: [[Element]] {
        switch self {
        case .word(let word): return [[.word(word)]]
        case .slot(let kind): return [[.slot(kind)]]
        case .choice(let options): return options.flatMap(\.expansions)
        case .sequence(let parts):
            var result: [[Element]] = [[]]
            for part in parts {
                let tails = part.expansions
                result = result.flatMap { head in tails.map { head + $0 } }
            }
            return result
        }
    }

    /// The slots the pattern contains (each expansion has the same ones, or none where optional).
    var slots: Set<SlotKind> {
        switch self {
        case .word: return []
        case .slot(let kind): return [kind]
        case .choice(let parts), .sequence(let parts): return parts.reduce(into: []) { $0.formUnion($1.slots) }
        }
    }

    /// Every literal word in the pattern.
    var words: Set<String> {
        switch self {
        case .word(let word): return [word]
        case .slot: return []
        case .choice(let parts), .sequence(let parts): return parts.reduce(into: []) { $0.formUnion($1.words) }
        }
    }

    /// Parses pattern text; throws naming the problem and the pattern.
    init(parsing text: String) throws {
        var parser = Parser(characters: Array(text.lowercased()), text: text)
        let pattern = try parser.alternatives(closedBy: nil)
        self = pattern
    }

    private struct Parser {
        let characters: [Character]
        let text: String
        var position = 0

        mutating func alternatives(closedBy closer: Character?) throws -> PhrasePattern {
            var options: [PhrasePattern] = [try sequence()]
            while position < characters.count, characters[position] == "|" {
                position += 1
                options.append(try sequence())
            }
            if let closer {
                guard position < characters.count, characters[position] == closer else { throw problem("a missing \"\(closer)\"") }
                position += 1
            } else if position < characters.count {
                throw problem("an unexpected \"\(characters[position])\"")
            }
            return options.count == 1 ? options[0] : .choice(options)
        }

        mutating func sequence() throws -> PhrasePattern {
            var parts: [PhrasePattern] = []
            while position < characters.count {
                let character = characters[position]
                switch character {
                case " ":
                    position += 1
                case "|", ")", "]":
                    return .sequence(parts)
                case "(":
                    position += 1
                    parts.append(try alternatives(closedBy: ")"))
                case "[":
                    position += 1
                    parts.append(.choice([try alternatives(closedBy: "]"), .sequence([])]))
                case "{":
                    position += 1
                    var name = ""
                    while position < characters.count, characters[position] != "}" { name.append(characters[position]); position += 1 }
                    guard position < characters.count else { throw problem("a missing \"}\"") }
                    position += 1
                    guard let kind = SlotKind(rawValue: name) else { throw problem("the unknown slot {\(name)}") }
                    parts.append(.slot(kind))
                default:
                    var word = ""
                    while position < characters.count, !" |()[]{}".contains(characters[position]) {
                        word.append(characters[position]); position += 1
                    }
                    parts.append(.word(word))
                }
            }
            return .sequence(parts)
        }

        func problem(_ what: String) -> CommandLanguageError {
            .badPattern(pattern: text, problem: what)
        }
    }
}
