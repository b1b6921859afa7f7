import Foundation
import TestSupport
import Testing

/// `assist see PHOTO --ask QUESTION`: the answer printed (and, without --quiet, spoken), --json
/// with what it was based on; a line that is no question about a picture is bad usage.
@Suite("assist see --ask answers a question about a picture", .serialized)
struct SeeAskCommandTests {
    func ask(_ question: String, _ extra: [String] = []) throws -> ProgramOutput {
        try AssistBinary.run(["see", AssistBinary.image("bus.jpg"), "--quiet", "--no-history", "--ask", question] + extra)
    }

    @Test("how many people on bus.jpg: the people the detector found, counted, then placed")
    func countPeople() throws {
        let output = try ask("how many people are there")
        #expect(output.status == 0, "\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        let first = try #require(lines.first)
        // bus.jpg: four people, three or four found at the default confidence.
        #expect(first == "3 people." || first == "4 people.", "\(lines)")
        #expect(lines.count >= 2)
    }

    @Test("a question the picture cannot answer is declined honestly, with exit status 0")
    func declined() throws {
        for question in ["what's his name", "how old is she"] {
            let output = try ask(question)
            #expect(output.status == 0, "\(output.standardError)")
            #expect(output.standardOutput == "I can't tell that from the picture.\n", "\(question): \(output.standardOutput)")
        }
    }

    @Test("--json carries the answer and the objects it was based on")
    func json() throws {
        let output = try ask("is there a bus", ["--json"])
        #expect(output.status == 0, "\(output.standardError)")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [[String: Any]])
        let answer = try #require(results.first?["answer"] as? [String: Any])
        #expect(answer["question"] as? String == "is there a bus")
        #expect((answer["sentences"] as? [String])?.first == "Yes.")
        let basis = try #require(answer["basedOn"] as? [[String: Any]])
        #expect(!basis.isEmpty && basis.allSatisfy { $0["label"] as? String == "bus" })
    }

    /// coco128's 000000000113.jpg (first half, chosen on): its cake is found at 0.57, below the
    /// threshold, and again at the threshold in the mirrored picture.
    @Test("a cake seen doubtfully and again in the mirrored picture is there: \"Yes.\", based on the cake")
    func secondLook() throws {
        let output = try AssistBinary.run(["see", SharedFiles.data("coco128/images/train2017/000000000113.jpg").path, "--quiet",
                                           "--no-history", "--json", "--ask", "is there a cake"])
        #expect(output.status == 0, "\(output.standardError)")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [[String: Any]])
        let answer = try #require(results.first?["answer"] as? [String: Any])
        #expect((answer["sentences"] as? [String])?.first == "Yes.", "\(answer)")
        let basis = try #require(answer["basedOn"] as? [[String: Any]])
        #expect(!basis.isEmpty && basis.allSatisfy { $0["label"] as? String == "cake" })
    }

    @Test("a line that is no question about a picture is bad usage (64), said in one sentence")
    func notAQuestion() throws {
        let output = try ask("set the volume to five")
        #expect(output.status == 64)
        #expect(output.standardError.contains("not a question about the picture") || output.standardError.contains("didn't understand"),
                "\(output.standardError)")
    }
}
