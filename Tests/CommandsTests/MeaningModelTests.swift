import Foundation
import TestSupport
import Testing
@testable import Commands

private struct ReferenceCase: Decodable {
    var text: String
    var input_ids: [Int]
    var embedding: [Float]
}

private struct ReferenceFile: Decodable {
    var cases: [ReferenceCase]
}

private let reference: [ReferenceCase] = {
    let url = SharedFiles.model("all-MiniLM-L6-v2").appendingPathComponent("reference-vectors.json")
    guard let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(ReferenceFile.self, from: data) else {
        fatalError("\(url.path) is needed by these tests")
    }
    return file.cases
}()

@Suite("The sentence model: WordPiece tokens and embeddings as the reference gives them")
struct MeaningModelTests {
    @Test("the Swift WordPiece tokenizer gives exactly the reference token ids for every reference sentence")
    func tokenIDs() throws {
        let tokenizer = try WordPieceTokenizer(vocabulary: SharedFiles.model("all-MiniLM-L6-v2").appendingPathComponent("vocab.txt"))
        #expect(reference.count >= 7)
        for item in reference {
            #expect(tokenizer.ids(for: item.text) == item.input_ids, "\(item.text)")
        }
    }

    @Test("a word longer than 100 characters is one [UNK], and a long text is cut to 256 tokens ending in [SEP]")
    func limits() throws {
        let tokenizer = try WordPieceTokenizer(vocabulary: SharedFiles.model("all-MiniLM-L6-v2").appendingPathComponent("vocab.txt"))
        #expect(tokenizer.ids(for: String(repeating: "a", count: 101)) == [tokenizer.classifierID, tokenizer.unknownID, tokenizer.separatorID])
        let long = tokenizer.ids(for: String(repeating: "scan now ", count: 300))
        #expect(long.count == 256)
        #expect(long.last == tokenizer.separatorID)
    }

    @Test("the embeddings match the reference vectors within 1e-4, alone and in a padded batch")
    func embeddings() throws {
        let embedder = understanding.classifier!.embedder
        let batch = try embedder.embed(reference.map(\.text))
        for (item, vector) in zip(reference, batch) {
            let single = try embedder.embed(item.text)
            let worst = zip(single, item.embedding).map { abs($0 - $1) }.max() ?? 1
            let worstBatched = zip(vector, item.embedding).map { abs($0 - $1) }.max() ?? 1
            #expect(worst < 1e-4, "\(item.text): \(worst)")
            #expect(worstBatched < 1e-4, "\(item.text) in a batch: \(worstBatched)")
        }
    }
}
