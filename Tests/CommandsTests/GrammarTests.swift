import AssistCore
import Foundation
import TestSupport
import Testing
@testable import Commands

struct GrammarTests {
    let phrases = english.concretePhrases()

    @Test("phrases the patterns allow (with example values) are understood as their own intent")
    func roundTrip() {
        #expect(phrases.count > 200)
        // Every fourth phrase, and each intent's first: the whole list takes half a minute in a debug build.
        let sample = phrases.enumerated().filter { index, phrase in
            index % 4 == 0 || phrases.firstIndex { $0.intent == phrase.intent } == index
        }.map(\.element)
        for (intent, text) in sample {
            let result = english.interpret(text)
            #expect(result.command?.intent == intent, "\"\(text)\" gave \(result), expected \(intent)")
        }
    }

    @Test("a language file with a broken pattern is refused when loaded, naming the pattern")
    func brokenPattern() throws {
        let source = SharedFiles.checkout.appendingPathComponent("Sources/Commands/Languages/en.json")
        let text = try String(contentsOf: source, encoding: .utf8)
        let broken = text.replacingOccurrences(of: "\"take a scan\"", with: "\"take (a scan\"")
        #expect(broken != text)
        #expect(throws: CommandLanguageError.badPattern(pattern: "take (a scan", problem: "a missing \")\"")) {
            try CommandLanguage(json: Data(broken.utf8), categories: cocoNames)
        }
        let wrongSlot = text.replacingOccurrences(of: "\"take a scan\"", with: "\"take a scan of {category}\"")
        #expect(throws: CommandLanguageError.wrongSlot(intent: "scanNow", pattern: "take a scan of {category}")) {
            try CommandLanguage(json: Data(wrongSlot.utf8), categories: cocoNames)
        }
    }

    @Test("a language that is not shipped is refused in one sentence naming those that are")
    func missingLanguage() {
        #expect(CommandLanguage.bundledLanguages() == ["en"])
        #expect(throws: SentenceFileError.languageNotAvailable(what: "spoken commands", language: "xx", available: ["en"])) {
            try CommandLanguage(language: "xx", categories: cocoNames)
        }
    }
}
