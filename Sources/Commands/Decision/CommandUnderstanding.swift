import AssistCore
import Foundation
import Synchronization

/// How sure the meaning must be before acting, asking, or (for speech that would hide things)
/// acting without asking. Similarities are an intent's mean cosine to its two closest examples;
/// the margin is the best intent's similarity less the runner-up's. Act and margin chosen by the
/// whole decision on the development sets and the tuning non-commands (`assist bench commands
/// bench/commands/dev-*.txt --tune bench/commands/tuning-none.txt`: most right with no
/// non-command acted on and at most 1 % wrong), never on the held-out sets (see BENCHMARKS.md).
public struct UnderstandingThresholds: Sendable, Equatable {
    /// At or above, with `margin`, the command is carried out.
    public var actSimilarity: Float
    /// At or above (and below `actSimilarity`, or with too small a margin), the command is asked about.
    public var askSimilarity: Float
    public var margin: Float
    /// Spoken commands that hide things act without asking only with this margin (and a sure recogniser).
    public var certainSimilarity: Float
    public var certainMargin: Float

    public init(actSimilarity: Float = 0.61, askSimilarity: Float = 0.5, margin: Float = 0.04,
                certainSimilarity: Float = 0.8, certainMargin: Float = 0.15) {
        self.actSimilarity = actSimilarity
        self.askSimilarity = askSimilarity
        self.margin = margin
        self.certainSimilarity = certainSimilarity
        self.certainMargin = certainMargin
    }
}

/// Decides what a typed or spoken line asks for: exact phrase patterns first (fast, and never
/// wrong on the language's own phrasings), then meaning by sentence similarity, with values read
/// by the pattern readers. It never substitutes: a thing the detector cannot see is answered
/// honestly, a near miss is asked about, and speech that would hide things is confirmed.
public final class CommandUnderstanding: Sendable {
    public let language: CommandLanguage
    public let classifier: MeaningClassifier?
    public let thresholds: UnderstandingThresholds
    /// Spoken confidence thresholds above this are confirmed first (they silence detections).
    public static let hidingConfidence = 0.8

    /// Told once when the sentence model fails while in use (`reading`).
    private let warn: @Sendable (String) -> Void
    private let toldModelFailure = Atomic(false)

    /// `warn`: where the one sentence goes when the sentence model fails in use (standard error unless given).
    public init(language: CommandLanguage, classifier: MeaningClassifier?, thresholds: UnderstandingThresholds = .init(),
                warn: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data("\($0)\n".utf8)) }) {
        self.language = language
        self.classifier = classifier
        self.thresholds = thresholds
        self.warn = warn
    }

    /// With the sentence model from the models folder ($ASSIST_MODELS, config, ../shared/models).
    /// `loading`: the model already being loaded (see `SentenceModelLoading`); nil: loaded here.
    public static func load(language: CommandLanguage, locator: ModelLocator = ModelLocator(),
                            loading: SentenceModelLoading? = nil) throws(MeaningModelError) -> CommandUnderstanding {
        let embedder: SentenceEmbedder
        if let loading { embedder = try loading.embedder() } else { embedder = try SentenceEmbedder.located(locator: locator) }
        return CommandUnderstanding(language: language, classifier: try MeaningClassifier(language: language, embedder: embedder))
    }

    /// As `load`, or, when the sentence model cannot be used, the exact phrases alone; `warn` is
    /// told why, once: the user must know that other phrasings will not be understood.
    public static func loadOrPhrasesOnly(language: CommandLanguage, loading: SentenceModelLoading? = nil,
                                         warn: (String) -> Void) -> CommandUnderstanding {
        do { return try load(language: language, loading: loading) } catch {
            warn("Only the exact command phrases will be understood: \(error.userMessage)")
            return CommandUnderstanding(language: language, classifier: nil)
        }
    }

    public func decide(_ text: String, channel: InputChannel) -> CommandDecision {
        if let meant = corrected(text, channel: channel) { return decide(meant, channel: channel) }
        if language.addressesOthers(text) { return .refuse(language.understandingReply(.notUnderstood)) }
        return withReasonGiven(decide(reading(text), channel: channel), text: text, channel: channel)
    }

    /// The line as its speaker finally meant it, when they corrected themselves in it; nil when
    /// they did not. "Louder, no, quieter" means "quieter", never louder then quieter; "find the
    /// cat, no wait, the dog" means "find the dog": a thing said alone after the correction takes
    /// the place of the last thing named before it. After a withdrawing word ("no", "scratch
    /// that") what came before is never carried out, so a correction that is no command leaves
    /// nothing to do ("exit, no, I'm fine"). After a replacing one ("sorry", "I mean") the
    /// correction counts only when it is understood: "stop talking, sorry, I'm on the phone" is
    /// an apology with a reason, and is decided as said.
    func corrected(_ text: String, channel: InputChannel) -> String? {
        let clauses = text.split(separator: ",").map(String.init)
        guard let found = language.correction(in: clauses) else { return nil }
        var meant = found.words
        let before = words(clauses[..<found.at].joined(separator: ","))
        if let thing = language.openingWithThing(found.words), let named = language.thingSpans(in: before).last {
            meant = before
            meant.replaceSubrange(named, with: thing)
        }
        let line = meant.joined(separator: " ")
        if !found.withdrawing, case .one(.refuse) = decideLine(line, channel: channel) { return nil }
        return line
    }

    /// Clauses a line may hold beside its command, each a reason or a remark.
    static let mostClauses = 4

    /// "Slow down, I can't follow you", "I'm heading out, put it in navigation mode": a command
    /// said with its reason in another clause is only asked back when read whole, the reason
    /// pulling the meaning away. It is carried out when one clause, read alone, is that same
    /// command, certainly (as a part of a line is: `decideAsPart`), and every other clause, read
    /// alone, is no command at all (two readings agree, and nothing else was asked for). A clause
    /// that is another command, a question back or a question about the picture leaves the line
    /// as it was decided whole.
    private func withReasonGiven(_ decision: CommandDecision, text: String, channel: InputChannel) -> CommandDecision {
        let pending: Command?
        switch decision {
        case .act: return decision
        case .confirm(_, let asked): pending = asked
        // "I didn't catch that, can you repeat it", "not louder, quieter": refused whole for the
        // negation in one clause; the other clause is the command. Never a line about someone
        // else ("he said, stop detecting").
        case .refuse: pending = nil
        }
        let clauses = text.split(separator: ",").map(String.init).filter { !words($0).isEmpty }
        guard (2...Self.mostClauses).contains(clauses.count), !language.speaksOfOthers(words(text)) else { return decision }
        // "I'm going to cross the road, are there any cars coming": the plan is the reason.
        if pending == nil, language.negatedPart(words(text)) == nil, !language.tellsOwnPlan(words(text)) { return decision }
        var command: Command?
        // Clauses only asked about as the command itself ("it's too loud in here, softer please"):
        // a reason that says the same, agreeing with it.
        var askedAs: [Command] = []
        // Commands a clause says it does not want ("I don't need the battery saver anymore").
        var negated: [CommandIntent] = []
        for clause in clauses {
            if language.speaksOfOthers(words(clause)) { return decision }
            // A word alone beside a reason ("sorry, I didn't catch that, …") is a command only in
            // the language's own phrases (`decideAsPart` refuses it otherwise), nor a reason asked about.
            let lone = words(clause).count == 1 && !language.patternMatch(words(clause)).exact
            switch decideAsPart(clause, channel: channel, saidJoined: false) {
            case .refuse:
                if let intent = negatedCommand(in: words(clause), channel: channel) { negated.append(intent) }
                continue
            case .act(let alone) where command == nil && alone.intent != .cannotTell: command = alone
            case .confirm(_, let asked) where !lone: askedAs.append(asked)
            default: return decision
            }
        }
        guard let command, askedAs.allSatisfy({ ExpectedCommand(doneBy: $0) == ExpectedCommand(doneBy: command) }) else { return decision }
        // A clause that turns down a command is a reason only for its opposite ("not louder,
        // quieter"); "I don't need the battery saver anymore, switch it off" speaks of the battery
        // saver, and "switch it off" alone would exit.
        if negated.contains(where: { !language.contrastGroup(of: $0).contains(command.intent) }) { return decision }
        if let pending, ExpectedCommand(doneBy: command) != ExpectedCommand(doneBy: pending) { return decision }
        return .act(command)
    }

    /// What the thresholds decide on: the words, the patterns' reading, and the meaning's ranking.
    public struct Reading: Sendable {
        let words: [String]
        /// The words the meaning was compared on (without the place said after the thing asked
        /// about), whose marking words decide within a contrast group.
        let meantWords: [String]
        let interpretation: Interpretation
        let exact: Bool
        let valueExact: Bool
        /// nil: not needed (an exact phrase) or no sentence model.
        let ranking: [MeaningClassifier.Ranking]?
        /// The line read with a hesitation run into its first word taken off (at most one).
        let withoutFusedHesitation: [Reading]
    }

    /// `text` read once, so that several thresholds can decide on it (the bench's tuning).
    public func reading(_ text: String) -> Reading {
        let words = language.normalizedWords(text)
        // The meaning of what was asked, without the name it was asked of: "assistive vision,
        // scan now" is compared as "scan now", lest the name pull it towards "exit assistive vision".
        let meant = language.startsWithAddress(text) ? words.joined(separator: " ") : text
        let split = language.withoutFusedHesitation(words).map { reading(words: $0, meant: $0.joined(separator: " "), split: []) }
        return reading(words: words, meant: meant, split: split.map { [$0] } ?? [])
    }

    private func reading(words: [String], meant: String, split: [Reading]) -> Reading {
        var (interpretation, exact, valueExact) = language.patternMatch(words)
        // Where the thing is said to be is not what is asked: "where are the bottles on the
        // shelf" is the question "where are the bottles", word for word.
        let unplaced = language.withoutPlaceAfterThing(words)
        if !exact, let unplaced {
            let (placeless, placelessExact, placelessValueExact) = language.patternMatch(unplaced)
            if placelessExact, case .understood(let command) = placeless, Self.asksAboutThingInView(command.intent), command.intent != .findAhead {
                (interpretation, exact, valueExact) = (placeless, true, placelessValueExact)
            }
        }
        // "What colour is the car that just pulled up": the clause says which car; the question
        // about one thing is asked of it (never a count or a search: "how many people who wait").
        if !exact, let unrelated = language.withoutRelativeClauseAfterThing(words) {
            let (asked, askedExact, askedValueExact) = language.patternMatch(unrelated)
            if askedExact, case .understood(let command) = asked, Self.asksAboutOneThing(command.intent) {
                (interpretation, exact, valueExact) = (asked, true, askedValueExact)
            }
        }
        var needsMeaning = !words.isEmpty
        if exact, case .understood = interpretation { needsMeaning = false }
        // And the meaning without the place said after the thing asked about: "how many chairs are
        // there in front of me" is compared as "how many chairs are there", not drawn to a search ahead.
        let meant = unplaced.map { $0.joined(separator: " ") } ?? meant
        var ranking: [MeaningClassifier.Ranking]?
        if needsMeaning, let classifier {
            do { ranking = try classifier.rank(meant) } catch {
                // The model is loaded when a line first needs it (and again after a rest), so a
                // damaged one is found here: the patterns alone decide, and the user is told once.
                if !toldModelFailure.exchange(true, ordering: .relaxed) {
                    warn("Only the exact command phrases will be understood: \(error.userMessage)")
                }
            }
        }
        return Reading(words: words, meantWords: unplaced ?? words, interpretation: interpretation, exact: exact,
                       valueExact: valueExact, ranking: ranking, withoutFusedHesitation: split)
    }

    public func decide(_ reading: Reading, channel: InputChannel) -> CommandDecision {
        let decision = decideAsRead(reading, channel: channel)
        guard let split = reading.withoutFusedHesitation.first else { return withSide(decision, reading: reading) }
        return withSide(withFusedHesitation(decision, split: decideAsRead(split, channel: channel)), reading: reading)
    }

    /// A question about a thing in view keeps the side said after the thing ("how far is the
    /// person on the left"): the answer is about that one, not the nearest.
    private func withSide(_ decision: CommandDecision, reading: Reading) -> CommandDecision {
        func sided(_ command: Command) -> Command {
            guard command.categories != nil, Self.asksAboutThingInView(command.intent), command.intent != .findAhead,
                  let side = language.sideAfterThing(reading.words) else { return command }
            var command = command
            command.side = side
            return command
        }
        switch decision {
        case .act(let command): return .act(sided(command))
        case .confirm(let question, let pending): return .confirm(question: question, pending: sided(pending))
        case .refuse: return decision
        }
    }

    private func decideAsRead(_ reading: Reading, channel: InputChannel) -> CommandDecision {
        let decision = alertOnArrival(declineTellingOfThing(declineUnmeasured(decideByPatternsAndMeaning(reading, channel: channel),
                                                                              reading: reading), reading: reading), reading: reading)
        return askingFractionalRate(heedingNegation(decision, reading: reading, channel: channel))
    }

    /// A speech rate is a whole number of words a minute: nobody asks for 100.9, but a recogniser
    /// writes "190" as "100.90". Such a rate is asked about, never set.
    private func askingFractionalRate(_ decision: CommandDecision) -> CommandDecision {
        guard case .act(let command) = decision, command.intent == .setSpeechRate, let rate = command.number,
              rate != rate.rounded() else { return decision }
        return ask(command)
    }

    /// "Don't stop detecting", "no, don't exit": a sentence's meaning hardly moves with a "not" in
    /// it, so a command read from a line that negates is refused when what the negation negates
    /// ("stop detecting", "exit"), said alone, is that same command: never the opposite of what
    /// was said. The negation is part of the command in an exact phrase ("do not announce
    /// chairs"), in a marking word that holds it ("not so loud"), and wherever what follows it is
    /// no such command ("sorry, I didn't catch that"). And a command
    /// that only turns a thing on is refused when the line asks to turn it off ("turn off the alert
    /// for cars"): no command does that, and turning it on would be the opposite; one that changes
    /// a setting, when the line says the setting is fine as it is ("I can hear you fine") or
    /// speaks of another thing's sound ("the volume on my telly is broken").
    private func heedingNegation(_ decision: CommandDecision, reading: Reading, channel: InputChannel) -> CommandDecision {
        let intent: CommandIntent
        switch decision {
        case .act(let command), .confirm(_, let command): intent = command.intent
        case .refuse: return decision
        }
        if language.asksToTurnOff(intent, in: reading.words) || language.saysSettingIsFine(intent, in: reading.words)
            || language.speaksOfOtherSoundSource(intent, in: reading.words) {
            return .refuse(language.understandingReply(.notUnderstood))
        }
        guard intent != .cannotTell, let negated = language.negatedPart(reading.words), !negated.isEmpty else { return decision }
        if reading.exact, case .understood = reading.interpretation { return decision }
        if language.saysNegatedMarking(of: intent, in: reading.words) { return decision }
        // "Start detecting and don't stop": "stop" alone is "stop talking", but here it is what the
        // line's own command opens with.
        if language.negatedOpensPhrase(of: intent, negated) { return .refuse(language.understandingReply(.notUnderstood)) }
        let alone: CommandIntent?
        switch decideAsRead(self.reading(words: negated, meant: negated.joined(separator: " "), split: []), channel: channel) {
        case .act(let command), .confirm(_, let command): alone = command.intent
        case .refuse: alone = nil
        }
        guard let alone, ExpectedCommand.action(of: alone) == ExpectedCommand.action(of: intent) else { return decision }
        return .refuse(language.understandingReply(.notUnderstood))
    }

    /// The command the negation in `words` turns down ("don't need the battery saver" → the battery
    /// saver on), or nil where it negates no command.
    private func negatedCommand(in words: [String], channel: InputChannel) -> CommandIntent? {
        guard let negated = language.negatedPart(words), !negated.isEmpty else { return nil }
        switch decideAsRead(reading(words: negated, meant: negated.joined(separator: " "), split: []), channel: channel) {
        case .act(let command), .confirm(_, let command): return command.intent == .cannotTell ? nil : command.intent
        case .refuse: return nil
        }
    }

    /// "Let me know if a bike comes" asks for an alert when one comes, not whether one is there
    /// now: a question about things in view that the line's words make such a request is asked
    /// back as the alert for those things, never answered about the present view.
    private func alertOnArrival(_ decision: CommandDecision, reading: Reading) -> CommandDecision {
        switch decision {
        case .act(let command), .confirm(_, let command):
            guard Self.asksAboutThingInView(command.intent), let things = command.categories,
                  language.asksToBeToldOfArrival(reading.words) else { return decision }
            return ask(Command(.enableAlert, categories: things))
        case .refuse: return decision
        }
    }

    /// A first word that is no word of the language and begins with a hesitation ("unsaved power
    /// please" for "um, save power please", "unlike mode please" for "um, light mode please") is
    /// a word the recogniser spoilt: what it was is not known, read as heard or without the
    /// hesitation ("saved power", "like mode"). So the line is never carried out: asked about as
    /// read without the hesitation, refused when either reading is (a decline that the picture
    /// cannot tell is kept: it does nothing).
    private func withFusedHesitation(_ asHeard: CommandDecision, split: CommandDecision) -> CommandDecision {
        switch (asHeard, split) {
        case (.refuse, _): return asHeard
        case (.act(let command), _) where command.intent == .cannotTell: return asHeard
        case (_, .refuse): return split
        case (_, .act(let command)) where command.intent == .cannotTell: return split
        case (_, .act(let command)), (_, .confirm(_, let command)): return ask(command)
        }
    }

    /// A line that opens by naming a thing in view and asks nothing of it tells of the thing ("the
    /// bus is running late again", "my phone needs charging"): talk near the assistant, not to it,
    /// so neither carried out nor asked about, whatever command its words resemble (an alert on
    /// buses, "what does the bus say"). It asks something of the thing when it says a word that
    /// marks the command it is understood as ("people are the most important": prioritise), or
    /// is nearly one of that command's own phrases ("cars ahead"); an exact phrase is what it says.
    private func declineTellingOfThing(_ decision: CommandDecision, reading: Reading) -> CommandDecision {
        let intent: CommandIntent
        switch decision {
        case .act(let command), .confirm(_, let command): intent = command.intent
        case .refuse: return decision
        }
        if reading.exact, case .understood = reading.interpretation { return decision }
        // "The train was too loud" says "loud", but tells what the train did.
        if language.tellsOfThingInPast(reading.words) { return .refuse(language.understandingReply(.notUnderstood)) }
        guard language.opensNamingThing(reading.words), !language.saysMarkingWord(of: intent, in: reading.words) else { return decision }
        switch reading.interpretation {
        case .understood(let phrase), .unclear(_, let phrase?):
            if ExpectedCommand.action(of: phrase.intent) == ExpectedCommand.action(of: intent) { return decision }
        default: break
        }
        return .refuse(language.understandingReply(.notUnderstood))
    }

    /// A question the picture cannot answer is declined, never answered as the nearby question its
    /// words resemble: a question about a thing in view that asks what nothing measures ("where is
    /// the bus going", "who is the man on the left", "how many calories is that"), and a line only
    /// nearly understood as such a question (asking "Did you mean: what is his name?" would make
    /// the user repeat a question whose answer is no answer). An exact phrase is what it says.
    /// Likewise a question that would be asked back but names no property measured ("is the bench
    /// wet" is not "where is the bench", "is the music loud in there" not "decrease volume"), or
    /// refused for naming a thing the detector lacks ("is the door locked"), and a
    /// count of things by what they do out of view ("how many people live in this building").
    private func declineUnmeasured(_ decision: CommandDecision, reading: Reading) -> CommandDecision {
        if case .confirm(_, let pending) = decision, pending.intent == .cannotTell { return .act(Command(.cannotTell)) }
        // "How many people are in the car": the count of a place the picture does not show into,
        // however exactly "how many people" was said.
        switch decision {
        case .act(let command), .confirm(_, let command):
            if [.countThings, .isThereThing].contains(command.intent), language.asksOfThingsInsideVehicle(reading.words) {
                return .act(Command(.cannotTell))
            }
        case .refuse: break
        }
        if reading.exact, case .understood = reading.interpretation { return decision }
        // "What is the lady in the shop called" is no "use a female voice", however near its
        // meaning: a question about a thing the detector finds that asks what nothing measures,
        // not said in a command's own words, is declined whatever it resembles.
        if case .refuse = decision {} else if language.asksAboutPicture(reading.words), language.asksUnmeasured(reading.words),
                                               language.namesDetectableCategory(reading.words) {
            return .act(Command(.cannotTell))
        }
        if language.asksUnmeasuredProperty(reading.words) {
            switch decision {
            case .confirm: return .act(Command(.cannotTell))
            // "Is the door locked": that doors are not recognised is true, but it is not what was asked.
            case .refuse where language.vocabularyUndetectable(reading.words) != nil: return .act(Command(.cannotTell))
            default: break
            }
        }
        var intents: [CommandIntent] = []
        switch decision {
        case .act(let command), .confirm(_, let command): intents.append(command.intent)
        case .refuse: break
        }
        switch reading.interpretation {
        case .understood(let command), .unclear(_, let command?): intents.append(command.intent)
        case .unknownValue(let intent, _, _): intents.append(intent)
        default: break
        }
        // "What colour are her eyes", "what colour is his shirt": the colour measured is a whole
        // thing's, or the centre's, never a part's nor a garment's on someone.
        if intents.contains(where: { $0 == .colourOfThing || $0 == .describeColour }),
           language.namesUnmeasuredPart(reading.words) || language.namesWornThingOfSomeone(reading.words) {
            return .act(Command(.cannotTell))
        }
        // "Where does this bus go", "when does the train leave": never a search, never the bus's place.
        if language.asksWhatThingDoes(reading.words) { return .act(Command(.cannotTell)) }
        // "How many pupils go to this school": no category put in place of what was counted, and
        // no refusal as if the question were not understood. A slip asked about ("how many chiars":
        // "How many chairs are there?") stays asked.
        if case .confirm = decision {} else if intents.contains(.countThings), !intents.contains(.countFaces),
           language.asksAboutPicture(reading.words), language.countsWhatNoCategoryNames(reading.words) {
            return .act(Command(.cannotTell))
        }
        guard intents.contains(where: Self.asksAboutThingInView) else { return decision }
        // "What time does the bus arrive" is no "how far is the bus", however sure the meaning.
        if language.asksUnmeasured(reading.words) || language.asksUnmeasuredProperty(reading.words) { return .act(Command(.cannotTell)) }
        if intents.contains(.countThings), language.countsWhatIsNotInView(reading.words) { return .act(Command(.cannotTell)) }
        return decision
    }

    /// Questions about one thing in view: where, how far, its colour, what it says.
    static func asksAboutOneThing(_ intent: CommandIntent) -> Bool {
        [.whereIsThing, .howFarThing, .colourOfThing, .textOnThing].contains(intent)
    }

    /// Questions answered from what was measured of the things in view (not searches, not modes).
    static func asksAboutThingInView(_ intent: CommandIntent) -> Bool {
        [.countThings, .isThereThing, .whereIsThing, .howFarThing, .colourOfThing, .textOnThing, .whatIsClosest,
         .whatIsOnLeft, .whatIsOnRight, .findAhead].contains(intent)
    }

    private func decideByPatternsAndMeaning(_ reading: Reading, channel: InputChannel) -> CommandDecision {
        let (words, exact, valueExact) = (reading.words, reading.exact, reading.valueExact)
        var interpretation = reading.interpretation
        guard !words.isEmpty else { return .refuse(language.understandingReply(.notUnderstood)) }
        if exact, case .understood(let command) = interpretation {
            return guarded(command, channel: channel, certainMeaning: true)
        }
        // "What does the cereal box say": a text question in so many words about a thing the
        // detector does not know, held up or pointed at: the text in view is read, as for "what
        // does this say", rather than refusing to look for a cereal box.
        if case .unknownValue(.textOnThing, _, _) = interpretation, !language.namesDetectableCategory(words) {
            return guarded(Command(.readText), channel: channel, certainMeaning: true)
        }
        // "What am I looking at" says "at" where "looking for" would search: neither the
        // patterns nor the meaning may read it as a search, however near.
        switch interpretation {
        case .understood(let command) where language.saysOtherThanMarking(command.intent, in: words),
             .unclear(_, let command?) where language.saysOtherThanMarking(command.intent, in: words):
            interpretation = .notUnderstood
        default: break
        }
        let ranking = reading.ranking?.filter { !language.saysOtherThanMarking($0.intent, in: words) }
        // "she speaks french and a bit of german" is about French, but not said to the assistant;
        // "I'll just exit through the back door" tells what the speaker will do.
        if language.speaksOfOthers(words) || language.tellsOwnPlan(words) { return .refuse(language.understandingReply(.notUnderstood)) }
        guard classifier != nil, let ranking, let best = ranking.first else {
            // Without the model, the patterns alone (near misses are asked about, not acted on).
            return patternsOnly(interpretation, words: words)
        }
        let choice = choose(from: ranking, words: reading.meantWords)
        let margin = choice.margin
        // "Is someone in front of me": the meaning leans to the questions nothing answers ("who is
        // that"), but the line asks, in so many words, what is measured (where, how many, how far)
        // of a thing the detector finds, and the patterns read it nearly as that question: it is
        // asked back as that question, never declined as unanswerable.
        if choice.intent == .cannotTell, case .understood(let matched) = interpretation, Self.asksAboutThingInView(matched.intent),
           language.namesAnswerable(words), language.namesDetectableCategory(words), !language.asksUnmeasured(words) {
            return ask(matched)
        }
        // The patterns matched nearly and the meaning agrees: two independent readings.
        // A slip that put another word where a marking word stands ("get me to a bus" is one word
        // from "alert me to {categories}") is no agreement: the meaning decides alone then.
        if case .understood(let matched) = interpretation, valueExact,
           ExpectedCommand.action(of: matched.intent) == ExpectedCommand.action(of: choice.intent),
           best.similarity >= thresholds.askSimilarity,
           language.contrastGroup(of: matched.intent).count == 1 || language.saysMarkingWord(of: matched.intent, in: words) {
            // The value as read from all that was said: a near-miss alignment may have left a
            // word of it out ("two hundred and fifty" read as "hundred and fifty").
            var command = matched
            if let kind = matched.intent.slot {
                switch language.readSlotAnywhere(kind, in: words) {
                case .value(let value): command = language.command(matched.intent, value: value) ?? matched
                // "Where is the nearest bus stop": the pattern read "bus" and let "stop" go as a slip.
                case .notDetectable(let plural):
                    return .refuse(language.understandingReply(.cannotRecognise, ["plural": plural]))
                default: break
                }
            }
            // "What am I looking at" is one slip from "what am I looking for": an intent that acts
            // only on its marking words is asked about without them.
            guard language.mayActUnmarked(command.intent, words: words) else { return ask(command) }
            return guarded(command, channel: channel, certainMeaning: false)
        }
        let sure = best.similarity >= thresholds.actSimilarity && margin >= thresholds.margin
        guard sure || best.similarity >= thresholds.askSimilarity else {
            if let plural = language.vocabularyUndetectable(words) {
                return .refuse(language.understandingReply(.cannotRecognise, ["plural": plural]))
            }
            // The patterns matched with a slip ("where is my dgo"): offered as a question.
            if case .understood(let command) = interpretation, let offered = offerable(command, words: words) {
                return ask(offered)
            }
            // The patterns matched all but a value nothing can be made of ("find a unicorn").
            if case .unknownValue = interpretation { return .refuse(language.reply(to: interpretation)) }
            return notUnderstood(words)
        }
        let intent = choice.intent
        // A thing the model cannot see, and nothing it can: say so, whatever was asked about it
        // ("is there a curb ahead" is no question about obstacles it could answer).
        if let plural = language.vocabularyUndetectable(words), Self.asksAboutThings(intent),
           !language.namesDetectableCategory(words) {
            return .refuse(language.understandingReply(.cannotRecognise, ["plural": plural]))
        }
        var command: Command
        if let kind = intent.slot {
            switch language.readSlotAnywhere(kind, in: words) {
            case .value(let value):
                guard let made = language.command(intent, value: value) else { return .refuse(language.understandingReply(.notUnderstood)) }
                command = made
            case .nearMiss(let value):
                guard let made = language.command(intent, value: value) else { return .refuse(language.understandingReply(.notUnderstood)) }
                return ask(made)
            case .notDetectable(let plural):
                return .refuse(language.understandingReply(.cannotRecognise, ["plural": plural]))
            // Taking the first thing named would put a thing in place of the one meant.
            case .several:
                return .refuse(language.understandingReply(.notUnderstood))
            case .missing:
                if case .unknownValue(let patternIntent, let slot, let heard) = interpretation, patternIntent == intent {
                    return .refuse(language.understandingReply(.unknownValue(slot), ["heard": heard]))
                }
                guard sure else { return notUnderstood(words) }
                return .refuse(language.understandingReply(.valueMissing, ["example": language.example(for: intent)]))
            }
        } else {
            command = Command(intent)
        }
        guard sure, language.mayActUnmarked(intent, words: reading.meantWords) else { return ask(command) }
        let certain = best.similarity >= thresholds.certainSimilarity && margin >= thresholds.certainMargin
        return guarded(command, channel: channel, certainMeaning: certain)
    }

    /// A line understood as no command: a question about the picture that is none of the forms
    /// answered from measurements ("is that my friend", "does the food taste good") is declined
    /// honestly, as the picture cannot answer it; anything else is not understood.
    private func notUnderstood(_ words: [String]) -> CommandDecision {
        language.asksAboutPicture(words) ? .act(Command(.cannotTell)) : .refuse(language.understandingReply(.notUnderstood))
    }

    /// What the meaning says: the most similar intent (within its contrast group, the one whose
    /// marking words were said), its similarity, and its margin over the most similar intent
    /// that leads to another action outside the group.
    public func choose(from ranking: [MeaningClassifier.Ranking], words: [String]) -> (intent: CommandIntent, similarity: Float, margin: Float) {
        guard let best = ranking.first else { return (.help, 0, 0) }
        // Intents told apart by their marking words ("faster"/"slower") do not compete on similarity.
        let group = language.contrastGroup(of: best.intent)
        let runnerUp = ranking.dropFirst().first(where: {
            ExpectedCommand.action(of: $0.intent) != ExpectedCommand.action(of: best.intent) && !group.contains($0.intent)
        })
        return (language.resolveContrast(best.intent, words: words), best.similarity, best.similarity - (runnerUp?.similarity ?? 0))
    }

    /// The words a line is compared in.
    public func words(_ text: String) -> [String] { language.normalizedWords(text) }

    /// Spoken commands that would hide things are confirmed unless both the recogniser and the
    /// meaning are sure; typed ones are exactly what was meant.
    private func guarded(_ command: Command, channel: InputChannel, certainMeaning: Bool) -> CommandDecision {
        guard case .spoken(let recogniserSure) = channel, Self.hidesThings(command) else { return .act(command) }
        return recogniserSure && certainMeaning ? .act(command) : ask(command)
    }

    /// Intents about things in view, where naming a thing the model lacks must be answered honestly
    /// ("enable stairs alert" is no command about hazard alerts as a whole).
    static func asksAboutThings(_ intent: CommandIntent) -> Bool {
        intent.slot == .category || intent.slot == .categories
            || [.checkObstacles, .scanNow, .describeAhead, .exploreScene, .enableHazardAlerts, .disableHazardAlerts].contains(intent)
    }

    /// Commands after which the user hears less: categories ignored, a threshold high enough to
    /// drop real objects, a language they may not understand.
    public static func hidesThings(_ command: Command) -> Bool {
        switch command.intent {
        case .ignore, .changeLanguage: return true
        case .setConfidence: return (command.number ?? 0) > hidingConfidence
        default: return false
        }
    }

    func ask(_ command: Command) -> CommandDecision {
        .confirm(question: language.understandingReply(.confirmQuestion, ["phrase": language.spokenPhrase(for: command)]),
                 pending: command)
    }

    private func patternsOnly(_ interpretation: Interpretation, words: [String]) -> CommandDecision {
        switch interpretation {
        case .understood(let command), .unclear(_, let command?):
            guard let offered = offerable(command, words: words) else { return notUnderstood(words) }
            return ask(offered)
        case .notUnderstood: return notUnderstood(words)
        default: return .refuse(language.reply(to: interpretation))
        }
    }

    /// What a pattern matched with a slip may be offered as, or nil. A slip can land on the
    /// opposite of what was said ("unpause" is one letter pair from the pattern "pause"), so the
    /// line's own marking words decide within the command's contrast group ("unmute" marks stop
    /// ignoring): the intent they mark is offered instead, with the values read for the slip when
    /// it takes the same kind; nothing is offered when it would need a value that was not read.
    func offerable(_ command: Command, words: [String]) -> Command? {
        let marked = language.resolveContrast(command.intent, words: words)
        if marked == command.intent { return command }
        guard marked.slot == command.intent.slot else { return nil }
        return Command(marked, categories: command.categories, number: command.number, language: command.language)
    }
}

extension CommandLanguage {
    func namesDetectableCategory(_ words: [String]) -> Bool {
        if case .value = readSlotAnywhere(.categories, in: words) { return true }
        return false
    }

    func vocabularyUndetectable(_ words: [String]) -> String? { vocabulary.undetectable(in: words) }
}
