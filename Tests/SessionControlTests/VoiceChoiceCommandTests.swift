import Commands
import Speech
import Storage
import Testing
@testable import SessionControl

@Suite("Choosing the voice by command")
struct VoiceChoiceCommandTests {
    @Test("'use the natural voice' and 'use the fast voice' are understood, and store the voice the catalogue starts")
    func naturalAndFast() throws {
        let language = try CommandLanguage(language: "en", categories: SettingsValidator.cocoCategories)
        for (phrase, intent, stored) in [("use the natural voice", CommandIntent.useNaturalVoice, "natural"),
                                         ("use the fast voice", CommandIntent.useFastVoice, "fast")] {
            let understood = try #require(language.interpret(phrase).command, "\(phrase)")
            #expect(understood.intent == intent)
            let changes = try #require(SettingChanges.changes(for: understood, in: Settings(), language: language))
            #expect(changes.writes == [SettingChanges.Write(key: "speech.voice", value: .string(stored))])
            #expect(VoiceCatalog.isNatural(stored) == (intent == .useNaturalVoice))
        }
    }
}
