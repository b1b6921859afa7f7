import Benchmarks
import Testing

@Suite("assist bench questions: the printed table")
struct QuestionBenchmarkTableTests {
    @Test("each question's median and nearest-rank 95th percentile, in the order asked; a question with no runs is left out")
    func table() {
        let times: [(String, [Double])] = [("how many people", (1...20).map(Double.init).reversed()), ("is there a bus", []),
                                           (QuestionBenchmark.facesAlone, [4, 2, 3])]
        let lines = QuestionBenchmark.table(times, pictureCount: 2, runs: 10).split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")
        #expect(lines[0] == "2 pictures as 640×480 frames, 10 runs each")
        #expect(lines[2].hasPrefix("how many people") && lines[2].hasSuffix("11.0     19.0"), "\(lines[2])")
        #expect(lines[3].hasPrefix(QuestionBenchmark.facesAlone) && lines[3].hasSuffix("3.0      4.0"), "\(lines[3])")
    }
}
