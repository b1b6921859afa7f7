import AssistCore
import Foundation
import Inference

/// Why the sentence model could not be used: one sentence each.
public enum MeaningModelError: UserFacingError, Equatable {
    case modelNotFound(searched: [String])
    case fileMissing(path: String)
    case badVocabulary(detail: String)
    case inference(InferenceError)
    case unexpectedOutput(detail: String)

    public var userMessage: String {
        switch self {
        case .modelNotFound(let searched):
            return "The sentence model \(SentenceEmbedder.relativePath) was not found; looked in \(searched.joined(separator: ", "))."
        case .fileMissing(let path): return "The file \(path) could not be read."
        case .badVocabulary(let detail): return "The sentence model's vocabulary is not usable: \(detail)."
        case .inference(let error): return error.userMessage
        case .unexpectedOutput(let detail): return "The sentence model gave an unexpected output: \(detail)."
        }
    }
}

/// Turns sentences into unit vectors whose dot product is their similarity in meaning:
/// all-MiniLM-L6-v2 (mean pooling and normalisation are inside the model graph) run by OpenVINO
/// on the CPU in f32, fed by the Swift WordPiece tokenizer.
///
/// A live session makes it with `loadsNow` false and an `IdleRelease`: the compiled model (about
/// 22 MB resident) is loaded at the first line that needs meaning and released when no line has
/// needed it for a while, so a session that hears only exact phrases never holds it
/// (BENCHMARKS.md, "Issue 37 (twenty-third session)").
public final class SentenceEmbedder: @unchecked Sendable {
    /// Where the model lies inside a models folder.
    public static let relativePath = "all-MiniLM-L6-v2/all-MiniLM-L6-v2.xml"
    public let tokenizer: WordPieceTokenizer
    public let dimensions: Int
    /// The IR's .xml this embedder runs.
    public let model: URL
    private let threads: Int
    private let idleRelease: IdleRelease?
    /// The compiled model and its one request while loaded, and how many times it was used
    /// (a release scheduled before the last use is stale). Guarded by `lock`, held for a whole
    /// inference: an OpenVINO request is not thread-safe (the reason this class is
    /// @unchecked Sendable: the lock makes it so).
    private var loaded: (compiled: CompiledModel, request: TokenInferenceRequest)?
    private var uses = 0
    private let lock = NSLock()

    /// When to let the compiled model go: `seconds` after its last use, timed by `schedule`
    /// (a dispatch timer; tests hand the closure over themselves).
    public struct IdleRelease: Sendable {
        public var seconds: Double
        public var schedule: @Sendable (_ seconds: Double, _ release: @escaping @Sendable () -> Void) -> Void

        public init(seconds: Double,
                    schedule: @escaping @Sendable (Double, @escaping @Sendable () -> Void) -> Void = { seconds, release in
                        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + seconds, execute: release)
                    }) {
            self.seconds = seconds
            self.schedule = schedule
        }

        /// A minute: commands come in bursts, and loading again costs 0.15–1 s
        /// (from OpenVINO's compiled-model cache).
        public static let session = IdleRelease(seconds: 60)
    }

    /// The model in the first models folder that has it ($ASSIST_MODELS, the config file, ../shared/models).
    public static func located(locator: ModelLocator = ModelLocator(), loadsNow: Bool = true,
                               idleRelease: IdleRelease? = nil) throws(MeaningModelError) -> SentenceEmbedder {
        for folder in locator.candidateDirectories {
            let model = folder.appendingPathComponent(relativePath)
            if FileManager.default.fileExists(atPath: model.path) {
                return try SentenceEmbedder(model: model, loadsNow: loadsNow, idleRelease: idleRelease)
            }
        }
        throw .modelNotFound(searched: locator.candidateDirectories.map(\.path))
    }

    /// `model` is the IR's .xml; `vocab.txt` and the weights' .bin lie beside it. `loadsNow`
    /// false: only the files' presence is checked here, and the model is compiled at the first
    /// `embed` (a damaged model is then reported by that call).
    public init(model: URL, threads: Int = 1, loadsNow: Bool = true, idleRelease: IdleRelease? = nil) throws(MeaningModelError) {
        self.model = model
        self.threads = threads
        self.idleRelease = idleRelease
        tokenizer = try WordPieceTokenizer(vocabulary: model.deletingLastPathComponent().appendingPathComponent("vocab.txt"))
        dimensions = 384
        if loadsNow {
            loaded = try Self.compile(model, threads: threads)
        } else {
            let weights = model.deletingPathExtension().appendingPathExtension("bin")
            guard FileManager.default.fileExists(atPath: weights.path) else { throw .fileMissing(path: weights.path) }
        }
    }

    private static func compile(_ model: URL, threads: Int) throws(MeaningModelError) -> (compiled: CompiledModel, request: TokenInferenceRequest) {
        do throws(InferenceError) {
            let core = try InferenceCore()
            let read = try core.readModel(at: model)
            // One thread: a command is a few dozen tokens, and the detector needs the other cores.
            let compiled = try core.compile(read, options: InferenceOptions(device: .cpu, threadCount: threads, precision: .f32))
            return (compiled, try compiled.makeTokenRequest())
        } catch {
            throw .inference(error)
        }
    }

    /// Whether the compiled model is held now.
    public var isLoaded: Bool { lock.withLock { loaded != nil } }

    /// Whether it is let go when idle (a live session's), rather than held for good.
    public var releasesWhenIdle: Bool { idleRelease != nil }

    /// Lets the compiled model go now (it is compiled again at the next `embed`) and gives the
    /// freed pages back to the system.
    public func release() {
        let released: Bool = lock.withLock {
            defer { loaded = nil }
            return loaded != nil
        }
        if released { FreedMemory.returnToSystem() }
    }

    /// The release scheduled after use `use`: nothing if the model was used since.
    private func releaseIfUnused(since use: Int) {
        let released: Bool = lock.withLock {
            guard uses == use, loaded != nil else { return false }
            loaded = nil
            return true
        }
        if released { FreedMemory.returnToSystem() }
    }

    /// One vector per sentence, each of unit length. Sentences are run in batches padded to the
    /// longest (padding is masked out by the model's pooling).
    public func embed(_ sentences: [String], batchSize: Int = 32) throws(MeaningModelError) -> [[Float]] {
        var vectors: [[Float]] = []
        var start = 0
        while start < sentences.count {
            let batch = Array(sentences[start..<min(sentences.count, start + batchSize)])
            vectors += try embedBatch(batch.map(tokenizer.ids(for:)))
            start += batch.count
        }
        return vectors
    }

    public func embed(_ sentence: String) throws(MeaningModelError) -> [Float] {
        try embedBatch([tokenizer.ids(for: sentence)])[0]
    }

    private func embedBatch(_ tokenLists: [[Int]]) throws(MeaningModelError) -> [[Float]] {
        let length = tokenLists.map(\.count).max() ?? 0
        var ids: [Int64] = [], mask: [Int64] = []
        ids.reserveCapacity(length * tokenLists.count)
        for tokens in tokenLists {
            ids += tokens.map(Int64.init) + Array(repeating: 0, count: length - tokens.count)
            mask += Array(repeating: 1, count: tokens.count) + Array(repeating: 0, count: length - tokens.count)
        }
        let shape = [tokenLists.count, length]
        let inputs = [
            TokenInferenceRequest.Input(name: "input_ids", dimensions: shape, values: ids),
            TokenInferenceRequest.Input(name: "attention_mask", dimensions: shape, values: mask),
            TokenInferenceRequest.Input(name: "token_type_ids", dimensions: shape, values: Array(repeating: 0, count: ids.count)),
        ]
        let expected = tokenLists.count * dimensions
        var use = 0
        let result: Result<[[Float]], MeaningModelError> = lock.withLock {
            do {
                let request: TokenInferenceRequest
                if let loaded { request = loaded.request } else {
                    let compiled = try Self.compile(model, threads: threads)
                    loaded = compiled
                    request = compiled.request
                }
                uses += 1
                use = uses
                try request.infer(inputs)
                return .success(try request.withOutput(at: 0) { description, floats -> [[Float]] in
                    guard floats.count == expected else {
                        throw MeaningModelError.unexpectedOutput(detail: "shape \(description), expected [\(tokenLists.count),\(dimensions)]")
                    }
                    return (0..<tokenLists.count).map { Array(floats[($0 * dimensions)..<(($0 + 1) * dimensions)]) }
                })
            } catch let error as InferenceError {
                return .failure(.inference(error))
            } catch let error as MeaningModelError {
                return .failure(error)
            } catch {
                return .failure(.unexpectedOutput(detail: String(describing: error)))
            }
        }
        if let idleRelease {
            let lastUse = use
            idleRelease.schedule(idleRelease.seconds) { [weak self] in self?.releaseIfUnused(since: lastUse) }
        }
        return try result.get()
    }
}
