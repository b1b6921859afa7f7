/// Keeps the same content from being said again and again: an utterance whose content key was
/// spoken less than `cooldownSeconds` ago is held back, unless it became more urgent (a closer
/// distance band, or a higher priority) or its object left the view and came back.
public struct RepetitionFilter: Sendable {
    public var cooldownSeconds: Double

    struct Spoken {
        var atSeconds: Double
        var distanceBand: Int?
        var priority: UtterancePriority
    }
    private var spoken: [String: Spoken] = [:]

    /// 10 s by default: long enough that a parked car is not announced at every step, short
    /// enough that it is mentioned again while still relevant.
    public init(cooldownSeconds: Double = 10) {
        self.cooldownSeconds = cooldownSeconds
    }

    /// Whether `utterance` is worth saying at `nowSeconds` (audio time).
    public func allows(_ utterance: Utterance, atSeconds nowSeconds: Double) -> Bool {
        guard let last = spoken[utterance.contentKey] else { return true }
        if nowSeconds - last.atSeconds >= cooldownSeconds { return true }
        if utterance.priority > last.priority { return true }
        if let band = utterance.distanceBand, let lastBand = last.distanceBand, band < lastBand { return true }
        return false
    }

    /// Records that `utterance` was said (queued to be said) at `nowSeconds`.
    public mutating func record(_ utterance: Utterance, atSeconds nowSeconds: Double) {
        spoken[utterance.contentKey] = Spoken(atSeconds: nowSeconds, distanceBand: utterance.distanceBand,
                                              priority: utterance.priority)
    }

    /// The object behind `contentKey` left the view: when it comes back it is new again.
    public mutating func forget(contentKey: String) {
        spoken[contentKey] = nil
    }

    /// Forgets entries older than the cooldown, so a long walk does not grow the table.
    public mutating func forgetExpired(atSeconds nowSeconds: Double) {
        spoken = spoken.filter { nowSeconds - $0.value.atSeconds < cooldownSeconds }
    }
}
