/// Which intent a sentence means, by its similarity to the language file's example phrasings:
/// the similarity of an intent is the mean of its `nearest` closest examples (cosines of unit
/// vectors, dot products), so an intent said in one of several quite different ways is still
/// found, while one lone look-alike example of another intent weighs less.
///
/// Sentences and examples are compared in the language's normalised words (lower case,
/// contractions expanded, politeness and hesitations such as "please", "could you", "um" left
/// out): they carry no meaning of their own and only pull unlike sentences together.
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
    /// How many of an intent's closest examples its similarity is the mean of.
    public let nearest: Int
    /// The text as it is embedded (the language's normalised words).
    let prepare: @Sendable (String) -> String

    /// `patternPhrases`: pattern phrases added per intent to its examples (see
    /// `CommandLanguage.meaningExamples`). None by default: 30 each raised held-out accuracy by
    /// half a point (BENCHMARKS.md) for three times the start-up embedding work.
    /// `cache`: where the examples' vectors are kept between runs (nil: always worked out).
    public init(language: CommandLanguage, embedder: SentenceEmbedder, patternPhrases: Int = 0, nearest: Int = MeaningClassifier.defaultNearest,
                cache: ExampleVectorCache? = ExampleVectorCache()) throws(MeaningModelError) {
        let prepare: @Sendable (String) -> String = { language.normalizedWords($0).joined(separator: " ") }
        var intents: [CommandIntent] = [], texts: [String] = []
        for intent in CommandIntent.allCases {
            for example in language.meaningExamples(for: intent, patternPhrases: patternPhrases) {
                let text = prepare(example)
                guard !text.isEmpty, !texts.contains(text) else { continue }
                intents.append(intent)
                texts.append(text)
            }
        }
        self.prepare = prepare
        self.nearest = max(1, nearest)
        self.embedder = embedder
        exampleIntents = intents
        exampleTexts = texts
        dimensions = embedder.dimensions
        if let kept = cache?.vectors(texts: texts, model: embedder.model, dimensions: embedder.dimensions) {
            exampleVectors = kept
        } else {
            exampleVectors = try embedder.embed(texts).flatMap { $0 }
            cache?.store(exampleVectors, texts: texts, model: embedder.model, dimensions: embedder.dimensions)
            // A session's model is let go now rather than a minute later: the examples are worked
            // out only after an install or a change of the language, and holding the model through
            // that first minute took the first live session from about 400 to 520 MB
            // (BENCHMARKS.md, "Issue 37 (twenty-fifth session)").
            if embedder.releasesWhenIdle { embedder.release() }
        }
    }

    /// Every intent with its similarity to `text`, most similar first.
    public func rank(_ text: String) throws(MeaningModelError) -> [Ranking] {
        rank(vector: try embedder.embed(prepare(text)))
    }

    func rank(vector: [Float], leavingOut left: Int? = nil) -> [Ranking] {
        // Each intent's `nearest` highest similarities, highest first.
        var best = [CommandIntent: [Float]]()
        vector.withUnsafeBufferPointer { query in
            exampleVectors.withUnsafeBufferPointer { examples in
                for index in exampleIntents.indices where index != left {
                    var dot: Float = 0
                    let base = index * dimensions
                    for d in 0..<dimensions { dot += query[d] * examples[base + d] }
                    var top = best[exampleIntents[index], default: []]
                    if top.count < nearest || dot > top[top.count - 1] {
                        top.insert(dot, at: top.firstIndex(where: { $0 < dot }) ?? top.count)
                        if top.count > nearest { top.removeLast() }
                        best[exampleIntents[index]] = top
                    }
                }
            }
        }
        return best.map { Ranking(intent: $0.key, similarity: $0.value.reduce(0, +) / Float($0.value.count)) }
            .sorted { $0.similarity != $1.similarity ? $0.similarity > $1.similarity : $0.intent.rawValue < $1.intent.rawValue }
    }

    /// Two: on the development set, with thresholds tuned for each, the mean of the closest two
    /// was right on more lines and wrong on fewer than the closest one alone or three
    /// (BENCHMARKS.md, issue 15).
    public static let defaultNearest = 2

    /// Each example ranked against all the others (itself left out): how the classifier does on
    /// phrasings it has not seen, for choosing thresholds without touching an evaluation set.
    public func leaveOneOut() -> [(text: String, intent: CommandIntent, ranking: [Ranking])] {
        exampleIntents.indices.map { index in
            let vector = Array(exampleVectors[(index * dimensions)..<((index + 1) * dimensions)])
            return (exampleTexts[index], exampleIntents[index], rank(vector: vector, leavingOut: index))
        }
    }
}
