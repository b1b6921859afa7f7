import AssistCore
import Foundation
import TestSupport
import Testing
@testable import Commands

struct GrammarTests {
    let grammar = english.grammar()

    @Test("the JSGF grammar has a public command rule and one rule per intent")
    func rules() {
        #expect(grammar.jsgf.hasPrefix("#JSGF V1.0;\ngrammar assistivekit;\npublic <command> = "))
        for intent in CommandIntent.allCases {
            #expect(grammar.jsgf.contains("\n<\(intent.rawValue)> = "), "no rule for \(intent)")
        }
        #expect(grammar.jsgf.contains("<category> = "))
        #expect(grammar.jsgf.contains("scan [ now | again ]"))
    }

    @Test("the grammar's words are plain lower-case words a pronunciation dictionary can hold")
    func words() {
        #expect(grammar.words.contains("scan"))
        #expect(grammar.words.contains("giraffe"))
        #expect(grammar.words.contains("point"))
        for word in grammar.words {
            #expect(word.allSatisfy { $0.isLowercase && $0.isLetter }, "\(word)")
        }
    }

    @Test("phrases the grammar can produce (with example values) are understood as their own intent")
    func roundTrip() {
        #expect(grammar.phrases.count > 200)
        // Every fourth phrase, and each intent's first: the whole list takes half a minute in a debug build.
        let sample = grammar.phrases.enumerated().filter { index, phrase in
            index % 4 == 0 || grammar.phrases.firstIndex { $0.intent == phrase.intent } == index
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
