/// A distance rounded for speech: what is said, before the words are chosen.
///
/// Rounding rule, and why: geometric estimates are off by 15–30 % and a spoken decimal is slow and
/// claims a precision we lack, so whole units near by and coarser steps far away:
/// - meters: under 1 m → "less than 1 meter" (within reach; the difference between 0.4 and 0.8 m
///   is not something to walk by); 1–10 m → the nearest meter; 10 m and more → the nearest 5 m.
/// - feet: under 3 ft (about 1 m) → "less than 3 feet"; 3–30 ft → the nearest foot; 30 ft and
///   more → the nearest 10 ft (about 3 m, the same steps as 5 m in spirit).
/// The unrounded value stays in the JSON output.
public enum SpokenDistance: Sendable, Equatable {
    case unknown
    /// Closer than `count` units.
    case lessThan(count: Int, unit: DistanceUnit)
    case about(count: Int, unit: DistanceUnit)

    public static let metersPerFoot = 0.3048

    public init(meters: Double?, unit: DistanceUnit) {
        guard let meters, meters.isFinite, meters >= 0 else { self = .unknown; return }
        switch unit {
        case .meters:
            if meters < 1 { self = .lessThan(count: 1, unit: .meters); return }
            self = .about(count: Self.rounded(meters, fineBelow: 10, coarseStep: 5), unit: .meters)
        case .feet:
            let feet = meters / Self.metersPerFoot
            if feet < 3 { self = .lessThan(count: 3, unit: .feet); return }
            self = .about(count: Self.rounded(feet, fineBelow: 30, coarseStep: 10), unit: .feet)
        }
    }

    /// Nearest whole unit below `fineBelow` (after rounding), nearest `coarseStep` from there on.
    private static func rounded(_ value: Double, fineBelow: Int, coarseStep: Int) -> Int {
        let whole = Int(value.rounded())
        guard whole >= fineBelow else { return whole }
        return max(fineBelow, Int((value / Double(coarseStep)).rounded()) * coarseStep)
    }
}
