import AssistCore
import Foundation
import TestSupport
import Testing
@testable import Commands

@Suite("The sentence model loads on its own thread while a session starts")
struct SentenceModelLoadingTests {
    @Test("the loaded model is the same one at every call, and understands as the one loaded in place")
    func loaded() throws {
        let loading = SentenceModelLoading(locator: sharedModelsLocator)
        let first = try loading.embedder()
        #expect(try loading.embedder() === first)
        let understood = try CommandUnderstanding.load(language: english, loading: loading)
        #expect(understood.classifier?.embedder === first)
        #expect(try understood.classifier?.rank("could you scan once please").first?.intent
                == understanding.classifier?.rank("could you scan once please").first?.intent)
    }

    @Test("a missing model is the same typed failure at every call, naming where it was looked for")
    func missing() throws {
        let empty = try TemporaryFolder.make("no-models")
        defer { try? FileManager.default.removeItem(at: empty) }
        let nowhere = ModelLocator(environment: ["ASSIST_MODELS": empty.path, "HOME": empty.path, "XDG_CONFIG_HOME": empty.path],
                                   workingDirectory: empty.appendingPathComponent("work"), executableURL: nil)
        let loading = SentenceModelLoading(locator: nowhere)
        for _ in 0..<2 {
            #expect(throws: MeaningModelError.self) { try loading.embedder() }
            #expect(throws: MeaningModelError.self) { try CommandUnderstanding.load(language: english, loading: loading) }
        }
        // Falling back to the exact phrases is never silent: the user is told once, in one sentence.
        var warnings: [String] = []
        let phrasesOnly = CommandUnderstanding.loadOrPhrasesOnly(language: english, loading: loading) { warnings.append($0) }
        #expect(phrasesOnly.classifier == nil)
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("Only the exact command phrases will be understood: The sentence model") == true)
        #expect(warnings.first?.contains(empty.path) == true)
    }
}
