/// Which intent a sentence means, by its similarity to the language file's example phrasings:
/// the similarity of an intent is that of its closest example (cosine of unit vectors, a dot
/// product), so an intent said in one of several quite different ways is still found.
///
/// The examples' vectors are worked out once, when the classifier is made, and kept in `cache`
/// for the next start.
public final class MeaningClassifier: Sendable {
    public struct Ranking: Sendable, Equatable {
        public var intent: CommandIntent
        public var similarity: Float
    }

    let embedder: SentenceEmbedder
    /// Each example's intent and its vector, row-major (`dimensions` floats each).
    let exampleIntents: [CommandIntent]
    let exampleTexts: [String]
    let exampleVectors: [Float]
    let dimensions: Int

    /// `patternPhrases`: pattern phrases added per intent to its examples (see
    /// `CommandLanguage.meaningExamples`). None by default: 30 each raised held-out accuracy by
    /// half a point (BENCHMARKS.md) for three times the start-up embedding work.
    /// `cache`: where the examples' vectors are kept between runs (nil: always worked out).
    public init(language: CommandLanguage, embedder: SentenceEmbedder, patternPhrases: Int = 0,
                cache: ExampleVectorCache? = ExampleVectorCache()) throws(MeaningModelError) {
        var intents: [CommandIntent] = [], texts: [String] = []
        for intent in CommandIntent.allCases {
            for text in language.meaningExamples(for: intent, patternPhrases: patternPhrases) where !texts.contains(text) {
                intents.append(intent)
                texts.append(text)
            }
        }
        self.embedder = embedder
        exampleIntents = intents
        exampleTexts = texts
        dimensions = embedder.dimensions
        if let kept = cache?.vectors(texts: texts, model: embedder.model, dimensions: embedder.dimensions) {
            exampleVectors = kept
        } else {
            exampleVectors = try embedder.embed(texts).flatMap { $0 }
            cache?.store(exampleVectors, texts: texts, model: embedder.model, dimensions: embedder.dimensions)
        }
    }

    /// Every intent with its best similarity to `text`, most similar first.
    public func rank(_ text: String) throws(MeaningModelError) -> [Ranking] {
        rank(vector: try embedder.embed(text))
    }

    func rank(vector: [Float], leavingOut left: Int? = nil) -> [Ranking] {
        var best = [CommandIntent: Float]()
        vector.withUnsafeBufferPointer { query in
            exampleVectors.withUnsafeBufferPointer { examples in
                for index in exampleIntents.indices where index != left {
                    var dot: Float = 0
                    let base = index * dimensions
                    for d in 0..<dimensions { dot += query[d] * examples[base + d] }
                    let intent = exampleIntents[index]
                    if dot > best[intent] ?? -2 { best[intent] = dot }
                }
            }
        }
        return best.map { Ranking(intent: $0.key, similarity: $0.value) }
            .sorted { $0.similarity != $1.similarity ? $0.similarity > $1.similarity : $0.intent.rawValue < $1.intent.rawValue }
    }

    /// Each example ranked against all the others (itself left out): how the classifier does on
    /// phrasings it has not seen, for choosing thresholds without touching an evaluation set.
    public func leaveOneOut() -> [(text: String, intent: CommandIntent, ranking: [Ranking])] {
        exampleIntents.indices.map { index in
            let vector = Array(exampleVectors[(index * dimensions)..<((index + 1) * dimensions)])
            return (exampleTexts[index], exampleIntents[index], rank(vector: vector, leavingOut: index))
        }
    }
}
