import AssistCore
import Foundation
import Perception
import Testing
@testable import Guidance

@Suite("Phrase files")
struct PhrasebookTests {
    @Test("the bundled English phrases are the checked-in Templates/en.json")
    func bundledIsTheFile() throws {
        #expect(try Phrasebook.bundled(language: "en") == Phrasebook(json: englishFileData()))
        #expect(Phrasebook.bundledLanguages() == ["en"])
    }

    @Test("sentences come from the file: edited phrases are what is said")
    func sentencesFollowTheFile() throws {
        var text = String(decoding: try englishFileData(), as: UTF8.self)
        text = text.replacingOccurrences(of: "No object detected.", with: "Nothing in view.")
        text = text.replacingOccurrences(of: "\"{object}, {distance}, {direction}.\"", with: "\"{direction}: {object} at {distance}.\"")
        let describer = SceneDescriber(phrasebook: try Phrasebook(json: Data(text.utf8)))
        #expect(describer.sentences(for: []) == ["Nothing in view."])
        #expect(describer.sentences(for: [located("person", meters: 2, degrees: 30)]) == ["Right: person at 2 meters."])
    }

    @Test("every COCO label, and face, has a singular and a plural name")
    func objectNames() throws {
        let english = try Phrasebook.bundled()
        #expect(english.objects.count == 81)  // the 80 COCO classes and "face" (assist see --faces)
        #expect(english.objectName(label: "face", count: 2) == "faces")
        #expect(english.objectName(label: "person", count: 2) == "people")
        #expect(english.objectName(label: "bus", count: 1) == "bus")
        #expect(english.objectName(label: "tv", count: 3) == "TVs")
    }

    @Test("a template without its {distance} placeholder is rejected, naming the field")
    func missingPlaceholder() throws {
        let text = String(decoding: try englishFileData(), as: UTF8.self)
            .replacingOccurrences(of: "\"{object} is {distance} away, {direction}.\"", with: "\"{object} is away, {direction}.\"")
        #expect(throws: PhrasebookError.missingPlaceholder(field: "sentences.full.one", placeholder: "{distance}")) {
            try Phrasebook(json: Data(text.utf8))
        }
    }

    @Test("an unknown language names the languages there are")
    func unknownLanguage() {
        #expect(throws: SentenceFileError.languageNotAvailable(what: "spoken phrases", language: "xx", available: ["en"])) {
            try Phrasebook.bundled(language: "xx")
        }
        #expect(throws: PhrasebookError.self) { try Phrasebook(json: Data("{}".utf8)) }
    }
}
