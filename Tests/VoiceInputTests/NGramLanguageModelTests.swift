import Commands
import Foundation
import TestSupport
import Testing
@testable import VoiceInput

@Suite("Command n-gram language model", .serialized)
struct NGramLanguageModelTests {
    let sentences: [(words: [String], weight: Double)] = [
        (["find", "a", "chair"], 1), (["find", "a", "cup"], 0.5), (["find", "the", "door"], 0.25),
        (["scan", "now"], 1), (["please", "scan", "now"], 1), (["stop"], 2), (["find", "a"], 1),
    ]

    @Test("after every history the probabilities of all words sum to 1, at each order")
    func normalised() {
        for order in 1...3 {
            let model = NGramLanguageModel(sentences: sentences, order: order)
            #expect(model.histories.count > (order == 1 ? 0 : 5))
            for history in model.histories + [["never", "seen"], ["find", "zebra"]] {
                let total = model.vocabulary.reduce(0) { $0 + model.probability(of: $1, after: history) }
                #expect(abs(total - 1) < 1e-9, "order \(order), after \(history): \(total)")
            }
        }
    }

    @Test("seen continuations are likelier than unseen ones, and weights count")
    func countsMatter() {
        let model = NGramLanguageModel(sentences: sentences)
        #expect(model.probability(of: "chair", after: ["find", "a"]) > model.probability(of: "door", after: ["find", "a"]))
        #expect(model.probability(of: "chair", after: ["find", "a"]) > model.probability(of: "cup", after: ["find", "a"]))
        #expect(model.probability(of: "now", after: ["<s>", "scan"]) > 0.5)
        #expect(model.probability(of: "<s>", after: ["find"]) == 0)
    }

    @Test("the ARPA text holds every n-gram with its log10 probability and the history's backoff weight")
    func arpaText() throws {
        let model = NGramLanguageModel(sentences: sentences)
        let lines = model.arpa.split(separator: "\n").map(String.init)
        #expect(lines.contains("\\data\\") && lines.last == "\\end\\")
        var declared: [Int: Int] = [:], listed: [Int: Int] = [:]
        var section = 0
        var parsed: [[String]: Double] = [:]
        for line in lines {
            if line.hasPrefix("ngram ") {
                let parts = line.dropFirst(6).split(separator: "=")
                declared[Int(parts[0])!] = Int(parts[1])!
            } else if line.hasSuffix("-grams:") {
                section = Int(line.dropFirst().prefix(1))!
            } else if section > 0, !line.isEmpty, !line.hasPrefix("\\") {
                let fields = line.split(separator: "\t")
                listed[section, default: 0] += 1
                parsed[fields[1].split(separator: " ").map(String.init)] = Double(fields[0])!
            }
        }
        #expect(declared == listed)
        #expect(declared[1] == model.vocabulary.count + 1)  // with <s>
        let chair = try #require(parsed[["find", "a", "chair"]])
        #expect(abs(pow(10, chair) - model.probability(of: "chair", after: ["find", "a"])) < 1e-6)
        #expect(parsed[["<s>"]] == -99)
        // pocketsphinx reads it.
        let decoder = try PocketSphinxDecoder(search: nil)
        try decoder.use(.interpolatedLanguageModel(arpa: model.arpa, general: nil, generalWeight: 0))
    }

    @Test("the command language's text holds its examples and its patterns with every slot value")
    func commandLanguageText() {
        let text = englishVocabulary.language.languageModelSentences()
        let sentences = Set(text.map { $0.words.joined(separator: " ") })
        #expect(sentences.contains("find a chair") && sentences.contains("find a bottle"))
        #expect(text.allSatisfy { $0.weight > 0 && $0.words.allSatisfy { !$0.isEmpty } })
        #expect(text.count > 1_000)
    }

    @Test("a command said by festival is decoded through the n-gram path, alone and with general English")
    func decodesSynthesisedCommand() throws {
        let folder = try TemporaryFolder.make("voice-tests-ngram")
        defer { try? FileManager.default.removeItem(at: folder) }
        let speech = RecognizerAudio.toInt16(try spokenSamples("find a chair", in: folder, sampleRateHz: 16_000))
        for weight in [0, 0.3] {
            let recognizer = try CommandRecognizer(languageModelOf: englishVocabulary.language, generalWeight: weight)
            let heard = try recognizer.utterances.recognizeWhole(speech)
            #expect(heard?.text == "find a chair", "general weight \(weight)")
        }
    }
}
