import Testing
@testable import Commands

struct NearMissTests {
    static let nearMisses: [(String, Expected)] = [
        ("scan know", Expected(.scanNow)),
        ("enable continues scanning", Expected(.continuousMode)),
        ("find a chiar", Expected(.find, ["chair"])),
        ("are there any obstacle", Expected(.checkObstacles)),
        ("what did you detect recenty", Expected(.recentDetections)),
        ("set confidance threshold to 0.5", Expected(.setConfidence, number: 0.5)),
        ("increse volume", Expected(.volumeUp)),
        ("swich camera", Expected(.switchCamera)),
        ("ignore bycicles", Expected(.ignore, ["bicycle"])),
        ("stop talkin", Expected(.stopTalking)),
        ("enable sene navigation", Expected(.navigationMode)),
        ("is there a persn ahead", Expected(.findAhead, ["person"])),
        ("change langage to french", Expected(.changeLanguage, language: "fr")),
        ("show my usage stat", Expected(.usageStats)),
    ]

    @Test("a near miss (a letter or two off in a word) is taken as the command meant", arguments: nearMisses)
    func nearMiss(_ text: String, _ expected: Expected) {
        let result = english.interpret(text)
        #expect(expected.matches(result.command), "\"\(text)\" gave \(result), expected \(expected)")
    }

    @Test("a word of the language is never read as a near miss of a thing's name: skip is not ship, look is not book",
          arguments: ["i don't care about potted plants, skip them", "skip them", "look"])
    func ownWordsNoNearMiss(_ text: String) {
        let decided = understanding.decide(text, channel: .typed)
        let named: [String]
        switch decided {
        case .act(let command), .confirm(_, let command): named = command.categories?.categories ?? []
        case .refuse: named = []
        }
        #expect(!named.contains("boat") && !named.contains("book"), "\(text): \(decided)")
    }

    static let nonsenseLines = ["banana telephone purple", "what is the weather tomorrow", "play some music", "asdfgh qwerty",
                           "", "   ", "!!!", "tell me a joke about penguins", "order a pizza to my house"]

    @Test("nonsense is not taken as any command", arguments: nonsenseLines)
    func nonsense(_ text: String) {
        let result = english.interpret(text)
        #expect(result.command == nil, "\"\(text)\" gave \(result)")
        if case .unknownValue = result { Issue.record("\"\(text)\" was taken as a command with an unknown value: \(result)") }
    }

    @Test("a pasted paragraph is not understood, and no phrase is cut off by the length bound")
    func paragraph() {
        let paragraph = "scan now " + String(repeating: "and then the weather was fine ", count: 100)
        #expect(english.interpret(paragraph) == .notUnderstood)
        #expect(english.interpret("scan now").command?.intent == .scanNow)
        // Every phrase, said with its longest slot, stays within the bound.
        let bound = english.longestMatchableWords
        for elements in english.phrases.flatMap(\.expansions) {
            #expect(elements.count + (CommandLanguage.longestSlotWords - 1) <= bound)
        }
        #expect(bound < 100, "\(bound) words")
    }

    @Test("nonsense gets the fallback sentence")
    func fallbackSentence() {
        #expect(english.reply(to: english.interpret("banana telephone purple"))
                == "Sorry, I didn't understand. Say help to hear what I can do.")
    }

    @Test("a half-heard command is not acted on but offered: Did you mean: scan now?")
    func suggestion() {
        let result = english.interpret("now")
        #expect(result == .unclear(closest: "scan now", command: Command(.scanNow)))
        #expect(english.reply(to: result) == "Sorry, I didn't understand. Did you mean: scan now?")
    }

    @Test("a command missing its value is offered with an example value")
    func missingValue() {
        let result = english.interpret("set confidence threshold to")
        guard case .unclear(let closest, let command) = result else {
            Issue.record("expected a suggestion, got \(result)"); return
        }
        #expect(closest == "set confidence threshold to zero point five")
        #expect(command == nil)
    }

    /// The example value may fill a value left out, never stand in for words the user said there.
    @Test("words said in a value's place that cannot be read are not offered back as the example value")
    func noExampleForWhatWasSaid() {
        let reply = english.reply(to: english.interpret("are there people looking at me"))
        #expect(!reply.contains("chair"), "\(reply)")
    }

    @Test("a category the model does not know is named in a sentence, not guessed")
    func unknownCategory() {
        #expect(english.interpret("find a unicorn") == .unknownValue(.find, slot: .category, heard: "unicorn"))
        #expect(english.interpret("find the door") == .unknownValue(.find, slot: .category, heard: "door"))
        // What follows the thing is not part of its name.
        #expect(english.interpret("find the gazebo can you guide me") == .unknownValue(.find, slot: .category, heard: "gazebo"))
        #expect(english.reply(to: english.interpret("find a unicorn"))
                == "I cannot detect unicorn. Say what can you detect to hear what I can.")
    }

    @Test("categories are checked against the model's own names: without giraffes, no giraffe")
    func modelCategories() throws {
        let small = try CommandLanguage(language: "en", categories: ["person", "car", "chair"])
        #expect(small.interpret("find a giraffe") == .unknownValue(.find, slot: .category, heard: "giraffe"))
        // A group keeps only the members the model knows.
        #expect(small.interpret("ignore vehicles").command?.categories?.categories == ["car"])
        #expect(small.interpret("find a chair").command?.categories?.categories == ["chair"])
    }

    @Test("a number that is not a number is named in a sentence")
    func unknownNumber() {
        let result = english.interpret("set confidence threshold to banana")
        #expect(result == .unknownValue(.setConfidence, slot: .fraction, heard: "banana"))
    }
}
