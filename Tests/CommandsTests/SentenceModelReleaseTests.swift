import Foundation
import Synchronization
import TestSupport
import Testing
@testable import Commands

/// The releases an embedder asked for, fired by the test instead of a timer.
private final class ScheduledReleases: Sendable {
    let pending = Mutex<[(seconds: Double, release: @Sendable () -> Void)]>([])

    var idleRelease: SentenceEmbedder.IdleRelease {
        SentenceEmbedder.IdleRelease(seconds: 60) { [self] seconds, release in pending.withLock { $0.append((seconds, release)) } }
    }

    func fire(_ index: Int) { pending.withLock { $0[index] }.release() }
    var count: Int { pending.withLock { $0.count } }
}

@Suite("A session's sentence model is compiled when a line needs meaning and let go when unused")
struct SentenceModelReleaseTests {
    private let modelFile = understanding.classifier!.embedder.model

    @Test("not compiled until used; released only by the release scheduled after the last use; compiled again, the same vectors")
    func releasedWhenIdle() throws {
        let releases = ScheduledReleases()
        let lazy = try SentenceEmbedder(model: modelFile, loadsNow: false, idleRelease: releases.idleRelease)
        #expect(!lazy.isLoaded)
        #expect(releases.count == 0)

        let scan = try lazy.embed("could you scan once please")
        #expect(lazy.isLoaded)
        #expect(releases.count == 1)
        #expect(releases.pending.withLock { $0[0].seconds } == 60)
        _ = try lazy.embed("where is my cup")
        #expect(releases.count == 2)

        releases.fire(0)   // scheduled before the second use: stale
        #expect(lazy.isLoaded)
        releases.fire(1)
        #expect(!lazy.isLoaded)

        let again = try lazy.embed("could you scan once please")
        #expect(lazy.isLoaded)
        let reference = try understanding.classifier!.embedder.embed("could you scan once please")
        for (a, b) in zip(again, scan) { #expect(abs(a - b) < 1e-5) }
        for (a, b) in zip(again, reference) { #expect(abs(a - b) < 1e-5) }
        lazy.release()
        #expect(!lazy.isLoaded)
    }

    @Test("with the examples' vectors kept, making the classifier does not compile the model; a line that needs meaning does")
    func classifierFromKeptVectors() throws {
        let folder = try TemporaryFolder.make("example-vectors-lazy")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ExampleVectorCache(folder: folder)
        let eager = try MeaningClassifier(language: english, embedder: understanding.classifier!.embedder, cache: cache)

        let releases = ScheduledReleases()
        let lazy = try SentenceEmbedder(model: modelFile, loadsNow: false, idleRelease: releases.idleRelease)
        let classifier = try MeaningClassifier(language: english, embedder: lazy, cache: cache)
        #expect(!lazy.isLoaded)
        #expect(classifier.exampleVectors == eager.exampleVectors)
        #expect(try classifier.rank("could you look for my cup").first == eager.rank("could you look for my cup").first)
        #expect(lazy.isLoaded)
    }

    @Test("when the examples' vectors must be worked out, a session's model is let go as soon as they are, and compiled again by a line that needs meaning")
    func releasedAfterWorkingOutExamples() throws {
        let folder = try TemporaryFolder.make("example-vectors-release")
        defer { try? FileManager.default.removeItem(at: folder) }
        let releases = ScheduledReleases()
        let lazy = try SentenceEmbedder(model: modelFile, loadsNow: false, idleRelease: releases.idleRelease)
        let classifier = try MeaningClassifier(language: english, embedder: lazy, cache: ExampleVectorCache(folder: folder))
        #expect(!lazy.isLoaded)
        #expect(classifier.exampleVectors.count == classifier.exampleTexts.count * lazy.dimensions)
        #expect(try classifier.rank("could you look for my cup").first != nil)
        #expect(lazy.isLoaded)

        // An embedder held for good (a benchmark's, a test's) keeps its model.
        let held = try SentenceEmbedder(model: modelFile)
        _ = try MeaningClassifier(language: english, embedder: held, cache: nil)
        #expect(held.isLoaded)
    }

    @Test("a model whose weights are missing is reported when made, loaded now or not")
    func missingWeights() throws {
        let folder = try TemporaryFolder.make("sentence-model-no-weights")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in [modelFile.lastPathComponent, "vocab.txt"] {
            try FileManager.default.copyItem(at: modelFile.deletingLastPathComponent().appendingPathComponent(name),
                                             to: folder.appendingPathComponent(name))
        }
        let copy = folder.appendingPathComponent(modelFile.lastPathComponent)
        #expect(throws: MeaningModelError.fileMissing(path: copy.deletingPathExtension().appendingPathExtension("bin").path)) {
            try SentenceEmbedder(model: copy, loadsNow: false)
        }
        #expect(throws: MeaningModelError.self) { try SentenceEmbedder(model: copy) }
    }

    @Test("a model whose weights are cut short is reported at start, though not compiled until a line needs it: its examples' vectors are kept by the files' size and date, so they are made again from it")
    func damagedWeightsFoundAtStart() throws {
        let folder = try TemporaryFolder.make("sentence-model-damaged")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = modelFile.deletingLastPathComponent()
        for name in [modelFile.lastPathComponent, "vocab.txt"] {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let weights = modelFile.deletingPathExtension().appendingPathExtension("bin")
        try Data(contentsOf: weights).prefix(4096).write(to: folder.appendingPathComponent(weights.lastPathComponent))
        let lazy = try SentenceEmbedder(model: folder.appendingPathComponent(modelFile.lastPathComponent), loadsNow: false)
        #expect(throws: MeaningModelError.self) {
            try MeaningClassifier(language: english, embedder: lazy, cache: ExampleVectorCache(folder: folder))
        }
    }
}
