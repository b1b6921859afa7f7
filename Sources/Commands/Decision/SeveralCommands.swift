import Foundation

/// How a line that may hold several commands ("louder and slower please", "stop detecting and
/// exit", "switch to navigation mode, then find a chair") is taken: as one command, as several
/// carried out in order, or not at all.
///
/// A line is split at "and", "then" or a comma only where every part is understood as a command
/// on its own; a line said exactly as one of the language's phrases is never split ("prioritise
/// bicycles and cars"), nor one whose value runs across the split ("ignore the chairs and the
/// cups", "two hundred and fifty"). When two or more parts are commands and another is not, or
/// when one of them would have to be confirmed first, nothing is done and the whole line is
/// answered: never half of it carried out silently.
public enum LineSplit: Sendable, Equatable {
    /// One command, or none: decide the whole line as before (`CommandUnderstanding.decide`).
    case whole
    /// Several commands, to be carried out in this order, each with its own confirmation.
    case several([Command])
    /// Several commands were meant and not all could be taken: nothing is done; say `sentence`.
    case refuse(String)
}

/// What was done with one line, several commands included, as the evaluation scores it.
public enum LineDecision: Sendable, Equatable {
    case one(CommandDecision)
    case several([Command])
}

extension CommandUnderstanding {
    /// Lines with more joins than this are decided whole: every way of splitting is tried, and
    /// nobody says seven commands at once.
    static let mostJoins = 6

    /// Whether `text` holds several commands, and which (see `LineSplit`).
    public func split(_ text: String, channel: InputChannel) -> LineSplit {
        if let meant = corrected(text, channel: channel) { return split(meant, channel: channel) }
        let pieces = LinePieces(text, joiningWords: language.joiningWords)
        guard !pieces.joins.isEmpty, pieces.joins.count <= Self.mostJoins else { return .whole }
        let whole = reading(text)
        // Exact only once a place phrase was cut off ("is there a dog around and how many people
        // are here" is "is there a dog" without all after "around"): the cut part may be a command.
        if whole.exact, case .understood = whole.interpretation, whole.meantWords == whole.words { return .whole }
        var decisions: [String: CommandDecision?] = [:]
        // The same part comes back in many ways of splitting: its patterns are matched once.
        var exactness: [String: Bool] = [:]
        func saidExactly(_ part: String) -> Bool {
            if let known = exactness[part] { return known }
            let exact = language.patternMatch(words(part)).exact
            exactness[part] = exact
            return exact
        }
        func decided(_ part: String, saidJoined: Bool) -> CommandDecision? {
            let key = (saidJoined ? "+" : "-") + part
            if let known = decisions[key] { return known }
            let decision: CommandDecision? = words(part).isEmpty ? nil : decideAsPart(part, channel: channel, saidJoined: saidJoined)
            decisions[key] = decision
            return decision
        }
        var understood: [CommandDecision]?
        var understoodTexts: [String] = []
        // Parts said exactly as one of the language's phrases, whatever the rest was.
        var exactParts: [Command] = []
        var partly: [Command]?
        var unsureAmong: [Command]?
        for choice in 1..<(1 << pieces.joins.count) {
            let saidJoined = pieces.joinsSaid(splittingAt: choice)
            let texts = pieces.parts(splittingAt: choice).filter { !words($0).isEmpty }
            var parts = texts.compactMap { decided($0, saidJoined: saidJoined) }
            guard parts.count >= 2 else { continue }
            // "Is there a bus ahead, and how far is it": a question after a question about a thing,
            // asking about "it", asks about that thing. So does one after a search ("look for a bus
            // and tell me how far it is"): the search goes on, and the question is answered now.
            if parts.count == texts.count {
                for index in parts.indices.dropFirst() {
                    guard case .act(let earlier) = parts[index - 1], let thing = earlier.categories,
                          Self.asksAboutThingInView(earlier.intent) || earlier.intent == .find,
                          parts[index].command?.categories == nil,
                          let named = language.namingThing(thing, in: words(texts[index])) else { continue }
                    if case .act(let asked)? = decided(named.joined(separator: " "), saidJoined: saidJoined),
                       Self.asksAboutThingInView(asked.intent), asked.categories == thing {
                        parts[index] = .act(asked)
                    }
                }
            }
            // "Look for a bench and guide me there": a part that names nothing and speaks of what an
            // earlier part named is about that thing, not a command of its own (here, navigation).
            if zip(texts, parts).enumerated().contains(where: { index, part in
                index > 0 && part.1.command?.categories == nil && language.refersBack(words(part.0))
                    && parts[..<index].contains { $0.command?.categories != nil }
            }) { continue }
            for (text, part) in zip(texts, parts) {
                if case .act(let command) = part, saidExactly(text), !exactParts.contains(command) { exactParts.append(command) }
            }
            let acted = parts.compactMap(\.command)
            // A part the picture cannot answer ("find my phone and tell me where it is") speaks of
            // what another part names: no command of its own, so the line is not split there.
            if acted.contains(where: { $0.intent == .cannotTell }) { continue }
            // Understood, but asked about because it would hide things (spoken "ignore chairs"),
            // or asked about though said in its own command's words ("find me a bus"), in the order said.
            let actedOrAsked = zip(texts, parts).compactMap { text, decision -> Command? in
                if case .confirm(_, let pending) = decision, Self.hidesThings(pending) || (saidJoined && channel != .typed)
                    || language.saysMarkingWord(of: pending.intent, in: words(text)) { return pending }
                return decision.command
            }
            if acted.count == parts.count {
                // The fewest parts that are all commands.
                if parts.count < (understood?.count ?? Int.max) { understood = parts; understoodTexts = texts }
            } else if actedOrAsked.count == parts.count, Self.distinct(actedOrAsked).count >= 2 {
                unsureAmong = unsureAmong ?? actedOrAsked
            } else if Self.distinct(acted).count >= 2 {
                partly = partly ?? acted
            }
        }
        if let understood {
            let commands = Self.distinct(understood.compactMap(\.command))
            guard commands.count >= 2 else { return .whole }
            // A value said across the join belongs to one command: "ignore the chairs and the cups";
            // unless every part says its own command in its words ("look for my cup, and stop
            // telling me about chairs"; "the cups" says none).
            // A number said in a part is that part's own value when no other part does the same
            // thing: "volume thirty percent and speech rate one sixty" read whole took the rate for
            // the volume (160 %).
            let actions = commands.map { ExpectedCommand.action(of: $0.intent) }
            let oneOfEachAction = Set(actions).count == actions.count
            let ownCommands = zip(understoodTexts, understood).allSatisfy { text, decision in
                decision.command.map { language.saysMarkingWord(of: $0.intent, in: words(text)) || (oneOfEachAction && $0.number != nil) } ?? false
            }
            if !ownCommands, case .understood(let all) = whole.interpretation, commands.contains(where: { Self.isPart($0, of: all) }) {
                return .whole
            }
            if !ownCommands, case .act(let all) = decide(whole, channel: channel), commands.contains(where: { Self.isPart($0, of: all) }) {
                return .whole
            }
            return .several(commands)
        }
        if let unsureAmong {
            return .refuse(language.sentence(.severalNeedConfirmation, ["understood": spokenList(unsureAmong)]))
        }
        if let partly {
            return .refuse(language.sentence(.severalNotAllUnderstood, ["understood": spokenList(partly)]))
        }
        // "Ignore the benches and get me to a bus", its second part understood by nobody, reads
        // whole as a search, and the thing searched for would be the benches: a thing named
        // for another command said exactly in its own part, while the line names another thing
        // too. Only that part was understood. ("Find the chair and tell me how far it is" names
        // one thing, and is decided whole.) So too when the whole acts on that part's thing and
        // others beside it: "quit going on about chairs, just find the table" is no "stop
        // ignoring chairs and tables".
        if !exactParts.isEmpty, case .act(let all) = decide(whole, channel: channel), let things = all.categories?.categories,
           case .value(.categories(let named)) = language.readSlotAnywhere(.categories, in: whole.words),
           let other = exactParts.first(where: { part in
               guard ExpectedCommand.action(of: part.intent) != ExpectedCommand.action(of: all.intent),
                     let own = part.categories.map({ Set($0.categories) }) else { return false }
               return own.isSuperset(of: things) ? !Set(named.categories).isSubset(of: things)
                   : !own.isDisjoint(with: things)
           }) {
            return .refuse(language.sentence(.severalNotAllUnderstood, ["understood": spokenList([other])]))
        }
        return .whole
    }

    /// The whole decision for `text`, several commands included.
    public func decideLine(_ text: String, channel: InputChannel) -> LineDecision {
        if let meant = corrected(text, channel: channel) { return decideLine(meant, channel: channel) }
        if language.addressesOthers(text) { return .one(.refuse(language.understandingReply(.notUnderstood))) }
        switch split(text, channel: channel) {
        case .whole: return .one(decide(text, channel: channel))
        case .several(let commands): return .several(commands)
        case .refuse(let sentence): return .one(.refuse(sentence))
        }
    }

    /// A part of a line, decided as a line of its own; but carried out only when it is one of the
    /// language's phrases or its meaning is certain (the spoken "certain" thresholds): splitting
    /// is a second guess, and "look once and tell me" is one command, not a scan and "more".
    /// Typed parts joined by "and" or "then" in so many words (`saidJoined`) are taken as sure as
    /// a line of their own (those of a contrast group only with its marking words): the user said there
    /// were two. A comma alone joins no such parts: what follows it is as often the reason for the
    /// command ("go back to the robotic voice, it's quicker") as another command. Spoken, such
    /// parts are asked about (a slip of the recogniser can make a command of a fragment).
    func decideAsPart(_ part: String, channel: InputChannel, saidJoined: Bool) -> CommandDecision {
        let reading = reading(part)
        let decision = decide(reading, channel: channel)
        guard case .act = decision else { return decision }
        if reading.exact, case .understood = reading.interpretation { return decision }
        // A word alone after or before a comma ("sorry, what's in front of me") is a command of
        // its own only in the language's own phrases ("louder, slower"): it is as often a
        // courtesy. Joined by "and" ("shh, and pause detection"), the user said there were two.
        if reading.words.count == 1, !saidJoined { return .refuse(language.understandingReply(.notUnderstood)) }
        guard let ranking = reading.ranking else { return decision }
        let choice = choose(from: ranking, words: reading.words)
        let certain = choice.similarity >= thresholds.certainSimilarity && choice.margin >= thresholds.certainMargin
        if certain { return decision }
        // Joined by "and": a command told from its opposites by marking words says one ("talk
        // quicker", "a bit softer", "how many people are here"); a phrase around a command ("go
        // ahead and …", "… and keep going") reads as one only when certain.
        guard saidJoined, case .act(let command) = decision, !language.joinedOnlyWhenCertain(command.intent),
              language.contrastGroup(of: command.intent).count == 1 || language.saysMarkingWord(of: command.intent, in: reading.words) else {
            return .refuse(language.understandingReply(.notUnderstood))
        }
        // Spoken, such a part is a command meant, not carried out: asked about, so that the line
        // is answered whole ("faster and a bit softer" is never only faster).
        return channel == .typed ? decision : ask(command)
    }

    /// "louder, slower": the commands as the language says them.
    private func spokenList(_ commands: [Command]) -> String {
        commands.map(language.spokenPhrase(for:)).joined(separator: ", ")
    }

    /// `commands` with a command said twice in a row kept once ("enough, stop talking").
    static func distinct(_ commands: [Command]) -> [Command] {
        var kept: [Command] = []
        for command in commands where kept.last.map({ ExpectedCommand(doneBy: $0) != ExpectedCommand(doneBy: command) }) ?? true {
            kept.append(command)
        }
        return kept
    }

    /// Whether `part` is `whole` with less of its value: the same action, other values.
    static func isPart(_ part: Command, of whole: Command) -> Bool {
        ExpectedCommand.action(of: part.intent) == ExpectedCommand.action(of: whole.intent)
            && (part.categories != whole.categories || part.number != whole.number)
    }
}

/// A line cut at its joins: the words, and where a comma or a joining word ("and", "and then",
/// ", then") stands between them.
struct LinePieces {
    /// The line's words, commas as words of their own.
    let tokens: [String]
    /// Each join: the range of its tokens.
    let joins: [Range<Int>]

    init(_ text: String, joiningWords: Set<String>) {
        let spaced = text.lowercased().replacingOccurrences(of: ",", with: " , ").replacingOccurrences(of: ";", with: " , ")
        tokens = spaced.split(whereSeparator: \.isWhitespace).map(String.init)
        func isJoin(_ token: String) -> Bool { token == "," || joiningWords.contains(token.trimmingCharacters(in: .punctuationCharacters)) }
        var joins: [Range<Int>] = []
        var index = 0
        while index < tokens.count {
            guard isJoin(tokens[index]) else { index += 1; continue }
            var end = index
            while end < tokens.count, isJoin(tokens[end]) { end += 1 }
            // A join at either end joins nothing ("and now the weather").
            if index > 0, end < tokens.count { joins.append(index..<end) }
            index = end
        }
        self.joins = joins
    }

    /// Whether every join chosen by `choice` holds a joining word ("and", ", then"), not a comma alone.
    func joinsSaid(splittingAt choice: Int) -> Bool {
        joins.enumerated().allSatisfy { bit, join in
            choice & (1 << bit) == 0 || tokens[join].contains { $0 != "," }
        }
    }

    /// The parts between the joins chosen by the bits of `choice` (bit i: the i-th join); the
    /// joins not chosen stay inside their part.
    func parts(splittingAt choice: Int) -> [String] {
        var parts: [String] = []
        var start = 0
        for (bit, join) in joins.enumerated() where choice & (1 << bit) != 0 {
            parts.append(tokens[start..<join.lowerBound].joined(separator: " "))
            start = join.upperBound
        }
        parts.append(tokens[start...].joined(separator: " "))
        return parts
    }
}
