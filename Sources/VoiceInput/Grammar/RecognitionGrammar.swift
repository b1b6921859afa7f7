import Foundation

/// What the recogniser may hear: sentence patterns whose `<slot>` references stand for lists of
/// spoken alternatives ("find a <category>" with category = chair | person | …), and an optional
/// wake phrase that must come first. Written out as JSGF for pocketsphinx; a small vocabulary
/// keeps recognition fast and accurate.
public struct RecognitionGrammar: Sendable, Equatable {
    /// Patterns in lower-case spoken words, e.g. "set confidence threshold to <number>".
    public var sentences: [String]
    /// Slot name → spoken alternatives (each one or more words).
    public var slots: [String: [String]]
    /// Said before a command when set ("assistant"), or alone to wake the listener; nil: commands alone.
    public var wakePhrase: String?

    public init(sentences: [String], slots: [String: [String]] = [:], wakePhrase: String? = nil) {
        self.sentences = sentences
        self.slots = slots
        self.wakePhrase = wakePhrase
    }

    /// Every word the grammar can produce (slot references excluded).
    public var words: Set<String> {
        var all = Set<String>()
        for text in sentences + slots.values.flatMap({ $0 }) + [wakePhrase].compactMap({ $0 }) {
            for token in Self.tokens(text) where !Self.isSlotReference(token) { all.insert(token) }
        }
        return all
    }

    /// The grammar without the sentences and slot values that use any of `words` (e.g. words the
    /// pronunciation dictionary lacks), and without sentences whose slot became empty.
    public func removing(words removed: Set<String>) -> RecognitionGrammar {
        guard !removed.isEmpty else { return self }
        func keeps(_ text: String) -> Bool { Self.tokens(text).allSatisfy { !removed.contains($0) } }
        let keptSlots = slots.mapValues { $0.filter(keeps) }
        let keptSentences = sentences.filter { sentence in
            keeps(sentence) && Self.tokens(sentence).filter(Self.isSlotReference).allSatisfy { reference in
                !(keptSlots[Self.slotName(reference)] ?? []).isEmpty
            }
        }
        return RecognitionGrammar(sentences: keptSentences, slots: keptSlots.filter { !$0.value.isEmpty }, wakePhrase: wakePhrase)
    }

    /// The grammar in JSGF 1.0; `<utterance>` is the public rule.
    public var jsgf: String {
        var lines = ["#JSGF V1.0;", "grammar assist;"]
        for name in slots.keys.sorted() {
            lines.append("<\(Self.ruleName(name))> = \(slots[name]!.map(Self.jsgfPhrase).joined(separator: " | "));")
        }
        lines.append("<command> = \(sentences.map(Self.jsgfPhrase).joined(separator: " | "));")
        if let wakePhrase {
            // The wake phrase alone wakes the listener for the next command; before a command it is optional,
            // so the listener (not the grammar) decides whether a command without it counts.
            lines.append("public <utterance> = (\(Self.jsgfPhrase(wakePhrase)) [<command>]) | <command>;")
        } else {
            lines.append("public <utterance> = <command>;")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Sentences with a problem JSGF would not show: a slot referenced but never defined.
    public var undefinedSlots: Set<String> {
        Set(sentences.flatMap(Self.tokens).filter(Self.isSlotReference).map(Self.slotName).filter { slots[$0] == nil })
    }

    static func tokens(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    }

    static func isSlotReference(_ token: String) -> Bool { token.hasPrefix("<") && token.hasSuffix(">") }
    static func slotName(_ reference: String) -> String { String(reference.dropFirst().dropLast()) }

    /// JSGF rule names are identifiers; slot names such as "category-group" are kept readable.
    static func ruleName(_ slot: String) -> String {
        "slot_" + slot.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
    }

    private static func jsgfPhrase(_ text: String) -> String {
        let parts = tokens(text).map { isSlotReference($0) ? "<\(ruleName(slotName($0)))>" : $0 }
        return parts.count > 1 ? "(" + parts.joined(separator: " ") + ")" : parts.joined()
    }
}
