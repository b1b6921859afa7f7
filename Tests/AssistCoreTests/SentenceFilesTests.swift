import Foundation
import TestSupport
import Testing
@testable import AssistCore

@Suite("Sentence files: one loader, one filler, one rule for a missing language")
struct SentenceFilesTests {
    private struct Sentences: Decodable, Equatable {
        var language: String
        var hello: String
    }

    /// A bundle folder like a target's resources: Templates/en.json, en.modes.json and a damaged fr.json.
    private func bundle() throws -> (Bundle, URL) {
        let root = try TemporaryFolder.make("sentence-files")
        let templates = root.appendingPathComponent("Templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try Data(#"{"language": "en", "hello": "Hello, {name}."}"#.utf8).write(to: templates.appendingPathComponent("en.json"))
        try Data(#"{"language": "en", "hello": "Mode {mode}."}"#.utf8).write(to: templates.appendingPathComponent("en.modes.json"))
        try Data(#"{"language": "fr""#.utf8).write(to: templates.appendingPathComponent("fr.json"))
        return (try #require(Bundle(url: root)), root)
    }

    @Test("a language's file and its kinds are found; the languages are those with a file of that kind")
    func loads() throws {
        let (bundle, root) = try bundle()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try SentenceFiles.load(Sentences.self, what: "greetings", language: "en", folder: "Templates", in: bundle)
                == Sentences(language: "en", hello: "Hello, {name}."))
        #expect(try SentenceFiles.load(Sentences.self, what: "greetings", language: "en", kind: "modes", folder: "Templates", in: bundle).hello
                == "Mode {mode}.")
        #expect(SentenceFiles.languages(folder: "Templates", in: bundle) == ["en", "fr"])
        #expect(SentenceFiles.languages(kind: "modes", folder: "Templates", in: bundle) == ["en"])
    }

    @Test("a language without a file is refused naming the languages there are; nothing falls back to English")
    func missingLanguage() throws {
        let (bundle, root) = try bundle()
        defer { try? FileManager.default.removeItem(at: root) }
        let error = SentenceFileError.languageNotAvailable(what: "greetings", language: "de", available: ["en"])
        #expect(throws: error) {
            try SentenceFiles.load(Sentences.self, what: "greetings", language: "de", kind: "modes", folder: "Templates", in: bundle)
        }
        #expect(error.userMessage == "There are no greetings in the language 'de'; there are en.")
    }

    @Test("a damaged file is one sentence that says to reinstall, not a crash")
    func damaged() throws {
        let (bundle, root) = try bundle()
        defer { try? FileManager.default.removeItem(at: root) }
        do {
            _ = try SentenceFiles.load(Sentences.self, what: "greetings", language: "fr", folder: "Templates", in: bundle)
            Issue.record("a damaged file was read")
        } catch {
            guard case .damaged(let what, let language, _) = error else { Issue.record("wrong error \(error)"); return }
            #expect(what == "greetings" && language == "fr")
            #expect(error.userMessage.hasPrefix("The greetings in 'fr' are damaged ("))
            #expect(error.userMessage.hasSuffix("reinstall assist."))
        }
    }

    @Test("placeholders are filled in one pass; braces inside a value and unknown placeholders stay as they are")
    func filling() {
        #expect(SentenceFiles.fill("{a} and {b}", ["a": "{b}", "b": "x"]) == "{b} and x")
        #expect(SentenceFiles.fill("{missing}!", [:]) == "{missing}!")
        #expect(SentenceFiles.fill("no braces", ["a": "b"]) == "no braces")
        #expect(SentenceFiles.fill("open {brace", ["brace": "x"]) == "open {brace")
        #expect(SentenceFiles.capitalized("bus coming closer.") == "Bus coming closer.")
        #expect(SentenceFiles.capitalized("") == "")
    }
}
