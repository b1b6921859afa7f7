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
public final class SentenceEmbedder: @unchecked Sendable {
    /// Where the model lies inside a models folder.
    public static let relativePath = "all-MiniLM-L6-v2/all-MiniLM-L6-v2.xml"
    public let tokenizer: WordPieceTokenizer
    public let dimensions: Int
    /// The IR's .xml this embedder runs.
    public let model: URL
    /// One request, used by one caller at a time (guarded by `lock`; the reason this class is
    /// @unchecked Sendable: an OpenVINO request is not thread-safe, the lock makes it so).
    private let request: TokenInferenceRequest
    private let lock = NSLock()
    private let compiled: CompiledModel

    /// The model in the first models folder that has it ($ASSIST_MODELS, the config file, ../shared/models).
    public static func located(locator: ModelLocator = ModelLocator()) throws(MeaningModelError) -> SentenceEmbedder {
        for folder in locator.candidateDirectories {
            let model = folder.appendingPathComponent(relativePath)
            if FileManager.default.fileExists(atPath: model.path) { return try SentenceEmbedder(model: model) }
        }
        throw .modelNotFound(searched: locator.candidateDirectories.map(\.path))
    }

    /// `model` is the IR's .xml; `vocab.txt` lies beside it.
    public init(model: URL, threads: Int = 1) throws(MeaningModelError) {
        self.model = model
        tokenizer = try WordPieceTokenizer(vocabulary: model.deletingLastPathComponent().appendingPathComponent("vocab.txt"))
        do {
            let core = try InferenceCore()
            let read = try core.readModel(at: model)
            // One thread: a command is a few dozen tokens, and the detector needs the other cores.
            compiled = try core.compile(read, options: InferenceOptions(device: .cpu, threadCount: threads, precision: .f32))
            request = try compiled.makeTokenRequest()
        } catch let error as InferenceError {
            throw .inference(error)
        } catch {
            throw .unexpectedOutput(detail: String(describing: error))
        }
        dimensions = 384
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
        let result: Result<[[Float]], MeaningModelError> = lock.withLock {
            do {
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
        return try result.get()
    }
}
