import AssistCore
import Foundation
import Guidance

/// "Find doors" with a model that knows no doors: the sentence names what it can find instead.
public struct UndetectableCategoryError: UserFacingError, Equatable {
    /// What the user asked for, as they said it.
    public let requestedName: String
    /// The supported names closest to it, closest first.
    public let suggestions: [String]
    public let userMessage: String
}

extension FindTarget {
    /// How many supported names the refusal offers: enough to show what is possible, few enough
    /// to keep in mind after hearing them once.
    static let suggestionCount = 4

    /// The target for what the user named ("chair", "chairs", "a table", "people"), among the
    /// detector's `classNames`. Plurals and the spoken names of the phrasebook are understood
    /// ("people" → person, "table" → dining table).
    /// - Throws: `UndetectableCategoryError` naming the closest supported names.
    public static func resolve(name: String, classNames: [String], aheadOnly: Bool = false,
                               phrasebook: Phrasebook? = nil, phrases: ModePhrases? = nil) throws -> FindTarget {
        let phrases = try phrases ?? ModePhrases.bundled(language: phrasebook?.language ?? "en")
        let phrasebook = phrasebook ?? (try? Phrasebook.bundled(language: phrases.language))
        let wanted = normalized(name)
        func spoken(_ label: String) -> String { phrasebook?.objectName(label: label, count: 1) ?? label }

        for candidate in spellings(of: wanted) {
            if let label = classNames.first(where: { $0.lowercased() == candidate }) {
                return FindTarget(categories: [label], spokenName: spoken(label), aheadOnly: aheadOnly)
            }
            // The phrasebook's words for a class ("people", "table", "TV").
            if let label = classNames.first(where: { label in
                guard let forms = phrasebook?.objects[label] else { return false }
                return forms.one.lowercased() == candidate || forms.other.lowercased() == candidate
            }) {
                return FindTarget(categories: [label], spokenName: spoken(label), aheadOnly: aheadOnly)
            }
        }
        // One word of a longer name ("phone" → cell phone, "light" → traffic light): taken when
        // only one class has it, offered first otherwise.
        func words(of label: String) -> Set<String> {
            let forms = phrasebook?.objects[label].map { [$0.one, $0.other] } ?? []
            return Set(([label] + forms).flatMap { $0.lowercased().split(separator: " ").map(String.init) })
        }
        let sharingAWord = classNames.filter { label in
            !wanted.isEmpty && spellings(of: wanted).contains { words(of: label).contains($0) }
        }
        if sharingAWord.count == 1, let label = sharingAWord.first {
            return FindTarget(categories: [label], spokenName: spoken(label), aheadOnly: aheadOnly)
        }
        let suggestions = Array((sharingAWord.map { spoken($0) }
            + closestNames(to: wanted, among: classNames.map { spoken($0) })).uniqued().prefix(suggestionCount))
        let message = SentenceFiles.fill(wanted.isEmpty ? phrases.find.nameMissing : phrases.find.cannotDetect, [
            "target": wanted, "names": suggestions.joined(separator: phrases.find.nameSeparator)])
        throw UndetectableCategoryError(requestedName: wanted, suggestions: suggestions, userMessage: message)
    }

    /// Lower case, single spaces, without a leading article ("a chair", "any chairs").
    static func normalized(_ name: String) -> String {
        var words = name.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "?" || $0 == "." }).map(String.init)
        if let first = words.first, ["a", "an", "the", "any", "some"].contains(first), words.count > 1 { words.removeFirst() }
        return words.joined(separator: " ")
    }

    /// The name as said and the singulars English plurals could come from, most likely first
    /// ("benches" → benches, benche, bench; "chairs" → chairs, chair).
    static func spellings(of name: String) -> [String] {
        var result = [name]
        if name.hasSuffix("ies") { result.append(String(name.dropLast(3)) + "y") }
        if name.hasSuffix("es") { result.append(String(name.dropLast(2))) }
        if name.hasSuffix("s") { result.append(String(name.dropLast())) }
        return result
    }

    /// The supported names most like `name`: those sharing its beginning first, then by edit
    /// distance (with transpositions), ties in the model's order.
    static func closestNames(to name: String, among names: [String]) -> [String] {
        var seen = Set<String>()
        let unique = names.filter { seen.insert($0).inserted }
        // Nothing to compare with: the model's first classes (COCO's are its commonest).
        guard !name.isEmpty else { return Array(unique.prefix(suggestionCount)) }
        let singular = spellings(of: name).last ?? name
        let scored = unique.enumerated().map { index, candidate -> (Int, Int, Int) in
            let prefix = candidate.lowercased().hasPrefix(String(singular.prefix(3))) ? 0 : 1
            return (prefix, EditDistance.between(singular, candidate.lowercased()), index)
        }
        return scored.sorted { $0 < $1 }.prefix(suggestionCount).map { unique[$0.2] }
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each only the first time it occurs.
    fileprivate func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
