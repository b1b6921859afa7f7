/// Percentiles of measured times by nearest rank, the one definition every benchmark reports with
/// ("95th percentile": the smallest value at or above 95 % of the values).
public enum NearestRank {
    /// The index of the `fraction` percentile in `count` sorted values (0 when there are none).
    public static func index(_ fraction: Double, count: Int) -> Int {
        min(count - 1, max(0, Int((fraction * Double(count)).rounded(.up)) - 1))
    }

    /// The 95th percentile of `sorted` (ascending); nil when it is empty.
    public static func percentile95(_ sorted: [Double]) -> Double? {
        sorted.isEmpty ? nil : sorted[index(0.95, count: sorted.count)]
    }
}
