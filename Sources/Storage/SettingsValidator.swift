import AssistCore
import Foundation

/// The category names a setting may use: the running detector's classes (the 80 COCO names for
/// the default model), handed in by the caller so Storage does not depend on Perception, plus
/// groups that expand to several of them ("vehicles" → car, bus, …).
public struct SettingsValidator: Sendable {
    /// Lower-cased class names, in the detector's order.
    public let knownCategories: [String]
    /// Group name → member categories, keeping only members the detector knows.
    public let categoryGroups: [String: [String]]
    /// The languages sentences and commands are written in ("en"), handed in by the caller like
    /// the categories: a language outside them is refused rather than stored and never spoken.
    /// nil: any well-formed language tag (Storage on its own, reading a backup).
    public let languages: [String]?

    public init(knownCategories: [String], categoryGroups: [String: [String]] = SettingsValidator.standardGroups,
                languages: [String]? = nil) {
        self.languages = languages
        let known = knownCategories.map { $0.lowercased() }
        self.knownCategories = known
        let knownSet = Set(known)
        self.categoryGroups = categoryGroups.compactMapValues { members in
            let kept = members.filter(knownSet.contains)
            return kept.isEmpty ? nil : kept
        }
    }

    /// The groups every part of AssistiveKit uses (see `CategoryGroups`).
    public static let standardGroups: [String: [String]] = CategoryGroups.members

    /// The categories `name` stands for: itself, or a group's members. Case and surrounding
    /// spaces are ignored; an unknown name throws with the closest valid names.
    public func categories(named name: String, forKey key: String) throws -> [String] {
        let normalized = name.trimmingCharacters(in: .whitespaces).lowercased()
        if knownCategories.contains(normalized) { return [normalized] }
        if let members = categoryGroups[normalized] { return members }
        throw StorageError.unknownCategory(key: key, name: name, suggestions: suggestions(for: normalized))
    }

    /// Up to three valid names (categories or groups) closest to `name` by edit distance, among
    /// those close enough to be a plausible typo: 2 edits, or 40 % of the name's length up to 4.
    public func suggestions(for name: String) -> [String] {
        EditDistance.closest(to: name.lowercased(), among: knownCategories + categoryGroups.keys.sorted())
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
enum EditDistance {
    static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    static func closest(to name: String, among candidates: [String], limit: Int = 3) -> [String] {
        let length = name.count
        let threshold = max(2, min(4, length * 2 / 5))
        // The distance is at least the difference in length: a long line typed as a name (a
        // pasted paragraph) is compared with no candidate, instead of a length × length table each.
        let scored: [(name: String, distance: Int)] = candidates.filter { abs($0.count - length) <= threshold }
            .map { (name: $0, distance: between(name, $0)) }
        let close = scored.filter { $0.distance <= threshold }
        let ordered = close.sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.name < $1.name }
        return ordered.prefix(limit).map { $0.name }
    }
}

extension SettingsValidator {
    /// The classes of AssistiveKit's default detector, for callers that cannot read the model's
    /// own names (no model installed yet); a caller with a model should pass that model's names.
    public static let cocoCategories: [String] = COCOClasses.names
}
