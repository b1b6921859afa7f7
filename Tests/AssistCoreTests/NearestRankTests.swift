import AssistCore
import Testing

@Suite("Percentiles by nearest rank")
struct NearestRankTests {
    @Test("the 95th percentile is the smallest value at or above 95 % of them; none of nothing")
    func percentile95() {
        let twenty = (1...20).map(Double.init)
        #expect(NearestRank.percentile95(twenty) == 19)          // rank ceil(0.95 × 20) = 19
        #expect(NearestRank.percentile95((1...100).map(Double.init)) == 95)
        #expect(NearestRank.percentile95((1...10).map(Double.init)) == 10)   // ceil(9.5) = 10
        #expect(NearestRank.percentile95([7]) == 7)
        #expect(NearestRank.percentile95([]) == nil)
        #expect(NearestRank.index(0.5, count: 4) == 1)
    }
}
