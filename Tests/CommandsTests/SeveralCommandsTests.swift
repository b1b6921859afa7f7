import Testing
@testable import Commands

@Suite("Several commands in one line: carried out in order, or none of them")
struct SeveralCommandsTests {
    /// The exact phrases alone, and with the sentence model: the rule holds for both.
    static let both: [CommandUnderstanding] = [CommandUnderstanding(language: english, classifier: nil), understanding]

    func intents(_ split: LineSplit) -> [CommandIntent]? {
        if case .several(let commands) = split { return commands.map(\.intent) }
        return nil
    }

    @Test("two or three commands joined by and, then or a comma are each carried out, in the order said",
          arguments: [("louder and slower please", [CommandIntent.volumeUp, .speakSlower]),
                      ("stop detecting and exit", [.stopDetection, .exit]),
                      ("switch to navigation mode then find a chair", [.navigationMode, .find]),
                      ("turn the volume up, then speak faster", [.volumeUp, .speakFaster]),
                      ("pause detection and then repeat", [.stopDetection, .repeatLast]),
                      ("use feet, hazard alerts off and maximum volume", [.useImperialUnits, .disableHazardAlerts, .maximumVolume])])
    func several(_ text: String, _ expected: [CommandIntent]) {
        for understanding in Self.both {
            #expect(intents(understanding.split(text, channel: .typed)) == expected, "\(text)")
        }
    }

    @Test("typed commands joined by and (or plus, also) are each carried out though each is only as sure as a line of its own, or a question, or one said after a place",
          arguments: [("talk quicker and a bit softer", [Expected(.speakFaster), Expected(.volumeDown)]),
                      ("shh, and pause detection for now", [Expected(.stopTalking), Expected(.stopDetection)]),
                      ("is there a dog around and how many people are here", [Expected(.isThereThing, ["dog"]), Expected(.countThings, ["person"])]),
                      ("look for my cup, and stop telling me about chairs", [Expected(.find, ["cup"]), Expected(.ignore, ["chair"])]),
                      // "plus" and "also" join as "and" does.
                      ("turn off the haptics plus stop ignoring dogs", [Expected(.disableHaptics), Expected(.stopIgnoring, ["dog"])]),
                      ("what's in front of me, also is there a stop sign", [Expected(.describeAhead), Expected(.isThereThing, ["stop sign"])])])
    func severalAsSure(_ text: String, _ expected: [Expected]) {
        guard case .several(let commands) = understanding.split(text, channel: .typed) else {
            Issue.record("not split: \(text) → \(understanding.decide(text, channel: .typed))")
            return
        }
        #expect(commands.count == expected.count, "\(text): \(commands)")
        for (command, meant) in zip(commands, expected) { #expect(meant.matches(command), "\(text): \(command)") }
    }

    @Test("a reason after a comma is no second command: 'go back to the robotic voice, it's quicker' is the fast voice alone",
          arguments: [("go back to the robotic voice, it's quicker", CommandIntent.useFastVoice),
                      ("no more talking, cut it off", .stopTalking), ("no vibrations please, just sound", .disableHaptics)])
    func reasonAfterComma(_ text: String, _ intent: CommandIntent) {
        #expect(understanding.split(text, channel: .typed) == .whole, "\(text)")
        #expect(understanding.decide(text, channel: .typed).command?.intent == intent, "\(text): \(understanding.decide(text, channel: .typed))")
    }

    @Test("a part the picture cannot answer, beside a command, is no command of its own: the line is decided whole")
    func cannotTellPart() {
        let split = understanding.split("find my phone and tell me how old it is", channel: .typed)
        if case .several(let commands) = split { Issue.record("split into \(commands)") }
        let decided = understanding.decide("find my phone and tell me how old it is", channel: .typed)
        #expect(decided.command?.intent != .cannotTell, "\(decided)")
    }

    @Test("of two commands said, one only asked about: neither is carried out, and the other's thing is not searched for instead")
    func oneAskedAbout() {
        let split = understanding.split("mute the benches and then locate some sort of bus", channel: .typed)
        guard case .refuse(let sentence) = split else {
            Issue.record("\(split)")
            return
        }
        #expect(sentence.contains("did nothing"))
    }

    @Test("a line whose one understood part names a thing for its own command is not decided whole on that thing: the benches are not searched for")
    func thingOfAnotherPart() {
        let split = understanding.split("ignore the benches and get me to a bus", channel: .typed)
        guard case .refuse(let sentence) = split else {
            Issue.record("\(split) → \(understanding.decideLine("ignore the benches and get me to a bus", channel: .typed))")
            return
        }
        #expect(sentence.contains("did nothing"))
    }

    @Test("a question after a search, asking about it, asks about the thing searched for: the search goes on and the question is answered now",
          arguments: [("find the chair and tell me how far it is", CommandIntent.howFarThing, "chair"),
                      ("look for a bus and tell me how far it is", .howFarThing, "bus"),
                      ("find my phone and tell me where it is", .whereIsThing, "cell phone"),
                      ("find my phone and tell me how far it is", .howFarThing, "cell phone"),
                      ("find the bus and tell me what colour it is", .colourOfThing, "bus")])
    func questionAfterSearch(_ text: String, _ question: CommandIntent, _ thing: String) {
        guard case .several(let commands) = understanding.split(text, channel: .typed) else {
            Issue.record("\(text): \(understanding.split(text, channel: .typed))")
            return
        }
        #expect(commands.map(\.intent) == [.find, question], "\(text)")
        #expect(commands.allSatisfy { $0.categories?.categories == [thing] }, "\(text): \(commands)")
    }

    @Test("a part that names nothing and speaks of what an earlier part named is about that thing: one search, no navigation mode",
          arguments: ["look for a bench and guide me there", "can you find the bus and take me to it"])
    func refersBack(_ text: String) {
        if case .several(let commands) = understanding.split(text, channel: .typed) { Issue.record("\(text): split into \(commands)") }
        #expect(understanding.decideLine(text, channel: .typed) == .one(understanding.decide(text, channel: .typed)))
        #expect(understanding.decide(text, channel: .typed).command?.intent == .find, "\(text)")
    }

    @Test("a question after a question about a thing, asking about it, asks about that thing: both are answered",
          arguments: [("is there a bus ahead, and how far is it", [CommandIntent.findAhead, .howFarThing], ["bus"]),
                      ("are there any chairs and where are they", [.isThereThing, .whereIsThing], ["chair"]),
                      ("how many buses are there and what does the first one say", [.countThings, .textOnThing], ["bus"])])
    func questionsAboutOneThing(_ text: String, _ intents: [CommandIntent], _ things: [String]) {
        guard case .several(let commands) = understanding.split(text, channel: .typed) else {
            Issue.record("\(text): not split: \(understanding.decideLine(text, channel: .typed))")
            return
        }
        #expect(commands.map(\.intent) == intents, "\(text)")
        #expect(commands.allSatisfy { $0.categories?.categories == things }, "\(text): \(commands)")
    }

    @Test("a word alone before a comma is no command of its own unless it is one of the language's phrases: 'sorry, …' is a courtesy")
    func loneWordBeforeComma() {
        let text = "sorry, what's in front of me right now?"
        #expect(understanding.split(text, channel: .typed) == .whole)
        #expect(understanding.decide(text, channel: .typed).command?.intent == .describeAhead, "\(understanding.decide(text, channel: .typed))")
        #expect(intents(understanding.split("louder, slower", channel: .typed)) == [.volumeUp, .speakSlower])
    }

    @Test("a line read whole as one command on the thing of a part said exactly for another command, and on a thing beside it, is not carried out")
    func thingsOfTwoParts() {
        let text = "quit going on about chairs, just find the table"
        guard case .refuse(let sentence) = understanding.split(text, channel: .typed) else {
            Issue.record("\(understanding.decideLine(text, channel: .typed))")
            return
        }
        #expect(sentence.contains("did nothing"))
    }

    @Test("but joins two commands as and does")
    func butJoins() {
        guard case .several(let commands) = understanding.split("ignore handbags but warn me about bicycles", channel: .typed) else {
            Issue.record("not split")
            return
        }
        #expect(commands.map(\.intent) == [.ignore, .enableAlert])
        #expect(commands.last?.categories?.categories == ["bicycle"])
    }

    @Test("the value of a command split at and or then stays with it: find a chair, not a chair and more")
    func valuesKept() throws {
        guard case .several(let commands) = understanding.split("switch to navigation mode then find a chair", channel: .typed) else {
            Issue.record("not split")
            return
        }
        #expect(commands.last?.categories?.categories == ["chair"])
    }

    @Test("a speaker who corrects themselves means the correction alone: never what they took back, never both",
          arguments: [("louder, no, quieter", Expected(.volumeDown)),
                      ("faster, er no, slower", Expected(.speakSlower)),
                      ("what's in front of me, sorry, what's on my left", Expected(.whatIsOnLeft)),
                      // A thing said alone after the correction takes the place of the thing before it.
                      ("find the cat, no wait, the dog", Expected(.find, ["dog"])),
                      ("is there a horse, sorry, a cow over there", Expected(.isThereThing, ["cow"])),
                      ("find a cup, i mean a bottle", Expected(.find, ["bottle"])),
                      ("ignore cats and dogs, no, just dogs", Expected(.ignore, ["dog"]))])
    func selfCorrection(_ text: String, _ expected: Expected) {
        for channel in [InputChannel.typed, .spoken(certain: true)] {
            guard case .one(let decision) = understanding.decideLine(text, channel: channel) else {
                Issue.record("split: \(text) → \(understanding.decideLine(text, channel: channel))")
                continue
            }
            #expect(expected.matches(decision.command), "\(text): \(decision)")
            // As the session takes it: split first, then decided.
            #expect(understanding.split(text, channel: channel) == .whole, "\(text)")
            #expect(expected.matches(understanding.decide(text, channel: channel).command), "\(text)")
        }
    }

    @Test("what a withdrawing word takes back is never done, even when what follows is no command; an apology before a reason is no correction")
    func withdrawnOrApology() {
        let notUnderstood = "Sorry, I didn't understand. Say help to hear what I can do."
        for text in ["exit, no, i'm fine", "stop detecting, scratch that, never mind"] {
            #expect(understanding.decideLine(text, channel: .typed) == .one(.refuse(notUnderstood)), "\(text)")
        }
        #expect(understanding.decideLine("stop talking, sorry, i'm on the phone", channel: .typed) == .one(.act(Command(.stopTalking))))
        // A "no" that ends the line, or opens a clause of its own words, corrects nothing.
        #expect(Expected(.isThereThing, ["bus"]).matches(understanding.decide("is there a bus, no?", channel: .typed).command))
        #expect(understanding.decideLine("stop, no more chairs", channel: .typed) != .one(.refuse(notUnderstood)))
    }

    @Test("one command that holds 'and' is never split: categories, a multi-word category, a number",
          arguments: [("prioritise bicycles and cars", Expected(.prioritise, ["bicycle", "car"])),
                      ("ignore fire hydrants and chairs", Expected(.ignore, ["fire hydrant", "chair"])),
                      ("find the fire hydrant", Expected(.find, ["fire hydrant"])),
                      ("set the speech rate to two hundred and fifty", Expected(.setSpeechRate, number: 250)),
                      ("could you ignore the chairs and the cups for me", Expected(.ignore, ["chair", "cup"]))])
    func notSplit(_ text: String, _ expected: Expected) {
        for understanding in Self.both {
            #expect(understanding.split(text, channel: .typed) == .whole, "\(text)")
        }
        #expect(expected.matches(understanding.decide(text, channel: .typed).command), "\(text)")
    }

    @Test("a number said in each part stays with its own command: the rate is never read as the volume",
          arguments: ["volume thirty percent and speech rate one sixty", "speech rate one sixty and volume thirty percent"])
    func numbersOfTwoSettings(_ text: String) {
        guard case .several(let commands) = understanding.split(text, channel: .typed) else {
            Issue.record("not split: \(text) → \(understanding.decide(text, channel: .typed))")
            return
        }
        let volume = commands.first { $0.intent == .setVolume }
        let rate = commands.first { $0.intent == .setSpeechRate }
        #expect(commands.count == 2 && volume?.number == 0.3 && rate?.number == 160, "\(text): \(commands)")
    }

    @Test("when two parts are commands and another is not understood, nothing is done and the whole line is answered")
    func notAllUnderstood() {
        for understanding in Self.both {
            let split = understanding.split("louder, slower and flibber the gronkle", channel: .typed)
            guard case .refuse(let sentence) = split else {
                Issue.record("\(split)")
                continue
            }
            #expect(sentence.contains("did nothing"))
            #expect(understanding.decideLine("louder, slower and flibber the gronkle", channel: .typed) == .one(.refuse(sentence)))
        }
    }

    @Test("spoken, several commands of which one must be confirmed first are none of them carried out")
    func oneNeedsConfirmation() {
        let split = Self.both[0].split("ignore chairs and exit", channel: .spoken(certain: false))
        guard case .refuse(let sentence) = split else {
            Issue.record("\(split)")
            return
        }
        #expect(sentence.contains("yes first"))
        // Typed, it is exactly what was meant: both are carried out.
        #expect(intents(Self.both[0].split("ignore chairs and exit", channel: .typed)) == [.ignore, .exit])
    }

    @Test("the same command said twice with a comma is one command ('enough, stop talking')")
    func repeatedIsOne() {
        #expect(Self.both[0].split("stop talking, stop talking", channel: .typed) == .whole)
    }

    @Test("a labelled line of several commands is right only when all are carried out in order")
    func scoring() throws {
        let phrases = try LabelledPhrase.parse("louder and slower please => volumeUp ; speakSlower\nlouder => volumeUp\n")
        #expect(phrases[0].then.map(\.intent) == [.speakSlower])
        let inOrder = CommandScore.measureLines(phrases) { text in
            text == "louder" ? .one(.act(Command(.volumeUp))) : .several([Command(.volumeUp), Command(.speakSlower)])
        }
        #expect(inOrder.right == 2)
        let halfDone = CommandScore.measureLines(phrases) { _ in .one(.act(Command(.volumeUp))) }
        #expect(halfDone.right == 1 && halfDone.wrong == 1)
        let reversed = CommandScore.measureLines(phrases) { _ in .several([Command(.speakSlower), Command(.volumeUp)]) }
        #expect(reversed.right == 0 && reversed.wrong == 2)
    }

    @Test("a non-command answered 'I can't tell that from the picture' is counted as declined, apart from one acted on")
    func declinedNonCommand() throws {
        let phrases = try LabelledPhrase.parse("what time does the pharmacy close => none\nwalk two blocks => none\nhello there => none\n")
        let score = CommandScore.measureLines(phrases) { text in
            text.hasPrefix("what time") ? .one(.act(Command(.cannotTell)))
                : text.hasPrefix("walk") ? .one(.act(Command(.navigationMode))) : .one(.refuse("Sorry."))
        }
        #expect(score.nonCommands == 3)
        #expect(score.nonCommandsActedOn == 1)
        #expect(score.nonCommandsDeclined == 1)
        #expect(score.mistakes.map(\.got) == ["declined: cannotTell", "acted: navigationMode"])
    }
}
