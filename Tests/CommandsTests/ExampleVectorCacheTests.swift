import Foundation
import TestSupport
import Testing
@testable import Commands

@Suite("The examples' vectors are kept between starts, and only for exactly what they were made from")
struct ExampleVectorCacheTests {
    @Test("a second classifier reads the kept vectors (the same ones); other examples, or a damaged file, are worked out again")
    func keptAndChecked() throws {
        let folder = try TemporaryFolder.make("example-vectors")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ExampleVectorCache(folder: folder)
        let embedder = understanding.classifier!.embedder
        let first = try MeaningClassifier(language: english, embedder: embedder, cache: cache)
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        #expect(files.count == 1)
        let kept = try #require(cache.vectors(texts: first.exampleTexts, model: embedder.model, dimensions: embedder.dimensions))
        #expect(kept == first.exampleVectors)
        let second = try MeaningClassifier(language: english, embedder: embedder, cache: cache)
        #expect(second.exampleVectors == first.exampleVectors)
        #expect(try second.rank("could you scan once please").first?.intent == first.rank("could you scan once please").first?.intent)

        // Other examples (one more pattern phrase per intent) are another file, never these vectors.
        #expect(cache.vectors(texts: first.exampleTexts.dropLast().map { $0 }, model: embedder.model, dimensions: embedder.dimensions) == nil)
        #expect(cache.vectors(texts: first.exampleTexts + ["one more"], model: embedder.model, dimensions: embedder.dimensions) == nil)

        // A damaged file (cut short, or vectors that are not of unit length) is not used.
        let file = try #require(files.first)
        let bytes = try Data(contentsOf: file)
        try bytes.prefix(bytes.count - 4).write(to: file)
        #expect(cache.vectors(texts: first.exampleTexts, model: embedder.model, dimensions: embedder.dimensions) == nil)
        try Data(repeating: 0, count: bytes.count).write(to: file)
        #expect(cache.vectors(texts: first.exampleTexts, model: embedder.model, dimensions: embedder.dimensions) == nil)
        let remade = try MeaningClassifier(language: english, embedder: embedder, cache: cache)
        #expect(remade.exampleVectors.count == first.exampleVectors.count)
        for (a, b) in zip(remade.exampleVectors, first.exampleVectors) { #expect(abs(a - b) < 1e-5) }
        #expect(cache.vectors(texts: first.exampleTexts, model: embedder.model, dimensions: embedder.dimensions) != nil)
    }
}
