import Testing
@testable import Commands

struct SentenceTests {
    func confirm(_ text: String, _ values: [String: String] = [:]) -> String {
        guard let command = english.interpret(text).command else { return "not understood: \(text)" }
        return english.confirmation(for: command, values: values)
    }

    @Test("each accepted command is confirmed in one short sentence that names what changed")
    func confirmations() {
        #expect(confirm("ignore chairs") == "Chairs will no longer be announced.")
        #expect(confirm("ignore chair") == "Chairs will no longer be announced.")
        #expect(confirm("ignore people") == "People will no longer be announced.")
        #expect(confirm("ignore cars and buses") == "Cars and buses will no longer be announced.")
        #expect(confirm("prioritise vehicles") == "Vehicles will be announced first.")
        #expect(confirm("find a chair") == "Looking for chairs.")
        #expect(confirm("find an umbrella") == "Looking for umbrellas.")
        #expect(confirm("is there a bus ahead") == "Checking for buses ahead.")
        #expect(confirm("set confidence threshold to fifty percent") == "Confidence threshold set to 50 percent.")
        #expect(confirm("change language to english") == "Language set to English.")
        #expect(confirm("volume up", ["volume": "80"]) == "Volume 80 percent.")
        #expect(confirm("set a loud tone for knives") == "Knives will sound a loud tone.")
        #expect(confirm("enable scene navigation") == "Scene navigation on.")
    }

    @Test("help lists what can be said in the current mode")
    func help() {
        let navigate = english.help(mode: "navigate")
        #expect(navigate.hasPrefix("In navigate mode you can say: are there any obstacles, is there a person ahead"))
        #expect(navigate.contains("exit"))
        let onDemand = english.help(mode: "on-demand")
        #expect(onDemand.contains("scan now"))
        #expect(!onDemand.contains("switch to on demand"))
    }

    @Test("what can you detect lists the model's categories, by their plural names")
    func categories() throws {
        let sentence = english.categoriesSentence()
        #expect(sentence.hasPrefix("I can detect 80 kinds of object: people, bicycles, cars,"))
        #expect(sentence.hasSuffix("hair driers and toothbrushes."))
        let small = try CommandLanguage(language: "en", categories: ["person", "bus"])
        #expect(small.categoriesSentence() == "I can detect 2 kinds of object: people and buses.")
    }

    @Test("the tutorial is a walkthrough of several sentences, ending with help")
    func tutorial() {
        #expect(english.tutorial.count >= 5)
        #expect(english.tutorial.last?.contains("help") == true)
    }
}
