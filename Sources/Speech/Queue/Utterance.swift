import Foundation

/// How urgent an utterance is. A higher priority is spoken first; a hazard interrupts anything
/// lower that is being spoken.
public enum UtterancePriority: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// "Walking mode on", battery, periodic summaries.
    case status = 0
    /// An object that has just come into view.
    case newObject = 1
    /// The answer to something the user asked ("what is ahead?", "repeat").
    case answer = 2
    /// Something the user may walk into or be hit by.
    case hazard = 3

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .status: return "status"
        case .newObject: return "new object"
        case .answer: return "answer"
        case .hazard: return "hazard"
        }
    }
}

/// One message for the user: what Guidance hands to the speech output. Plain value; the queue
/// decides when (and whether) it is heard.
public struct Utterance: Sendable, Equatable {
    public var priority: UtterancePriority
    /// The phrases to speak, most important first ("Car, 3 meters, left.", "Bench, 5 meters,
    /// ahead."). When the whole message would take longer than the queue's limit, phrases are
    /// dropped from the end: words are never cut.
    public var phrases: [String]
    /// Where the object is: 0 ahead, negative to the left, positive to the right, in degrees.
    /// Speech and tones are placed there in the stereo field; nil is centred.
    public var directionDegrees: Double?
    /// What makes two utterances "the same content" for repetition suppression, e.g.
    /// "car#12". Defaults to the spoken text.
    public var contentKey: String
    /// How near the object is, as an ordinal band: 0 is the closest band, larger is farther.
    /// Moving into a closer band makes a repeat worth saying again within the cooldown.
    public var distanceBand: Int?
    /// A tone played right before the words (or alone, when there are no words or the voice
    /// failed).
    public var earcon: Earcon?
    /// How serious the situation is, 0–1: the earcon's loudness follows it.
    public var severity: Double

    public init(_ phrases: [String], priority: UtterancePriority, directionDegrees: Double? = nil,
                contentKey: String? = nil, distanceBand: Int? = nil, earcon: Earcon? = nil, severity: Double = 0.5) {
        self.priority = priority
        self.phrases = phrases.filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        self.directionDegrees = directionDegrees
        self.contentKey = contentKey ?? phrases.joined(separator: " ")
        self.distanceBand = distanceBand
        self.earcon = earcon
        self.severity = min(max(severity, 0), 1)
    }

    public init(_ text: String, priority: UtterancePriority, directionDegrees: Double? = nil,
                contentKey: String? = nil, distanceBand: Int? = nil, earcon: Earcon? = nil, severity: Double = 0.5) {
        self.init([text], priority: priority, directionDegrees: directionDegrees, contentKey: contentKey,
                  distanceBand: distanceBand, earcon: earcon, severity: severity)
    }

    /// A tone alone, e.g. "nothing found".
    public static func tone(_ earcon: Earcon, priority: UtterancePriority = .status, directionDegrees: Double? = nil,
                            severity: Double = 0.5) -> Utterance {
        Utterance([], priority: priority, directionDegrees: directionDegrees, contentKey: "tone:\(earcon.rawValue)",
                  earcon: earcon, severity: severity)
    }

    public var text: String { phrases.joined(separator: " ") }
}

extension Utterance {
    /// Splits running text into sentences ("Bus ahead. Mind the step!" → two), so a long text is
    /// read as a series of short messages rather than one that the length limit would cut.
    public static func sentences(in text: String) -> [String] {
        var sentences: [String] = []
        var current = ""
        var previous: Character?
        for character in text {
            if character.isWhitespace, let previous, ".!?".contains(previous) {
                let sentence = current.trimmingCharacters(in: .whitespacesAndNewlines)
                if !sentence.isEmpty { sentences.append(sentence) }
                current = ""
            } else {
                current.append(character)
            }
            previous = character
        }
        let last = current.trimmingCharacters(in: .whitespacesAndNewlines)
        if !last.isEmpty { sentences.append(last) }
        return sentences
    }
}

extension Utterance {
    /// Phrases cut into pieces a slow voice synthesises one at a time. A piece is made of whole
    /// clauses (a clause ends after a word ending in one of `marks`, or at the end of a phrase):
    /// each piece joins the clauses that fit in its word limit, `firstPieceWords` for the first,
    /// twice the one before for each next, up to `maximumWords`; with `firstClauseAlone`, the
    /// first piece is the first clause only, so that it is made at once. A clause is cut inside
    /// only when it alone is longer than the limit. Never inside a word: joined with spaces, the
    /// pieces are the phrases' words in order.
    ///
    /// Whole clauses, because a Piper voice is trained on whole sentences with their punctuation:
    /// given a clause's first words alone ("Bicycle is"), or a one-word clause alone ("ahead."),
    /// it says them as a sentence of their own, clipped and with a falling tone, and the product's
    /// recogniser misheard them (BENCHMARKS.md, "Issue 37 (twenty-fourth session)").
    public static func pieces(of phrases: [String], breakingAfter marks: String,
                              firstPieceWords: Int, maximumWords: Int, firstClauseAlone: Bool = false) -> [String] {
        var pieces: [String] = []
        var current: [Substring] = []
        func limit() -> Int { max(min(firstPieceWords << min(pieces.count, 8), maximumWords), 1) }
        func close() {
            if !current.isEmpty { pieces.append(current.joined(separator: " ")) }
            current = []
        }
        for phrase in phrases {
            var clauses: [[Substring]] = [[]]
            for word in phrase.split(whereSeparator: \.isWhitespace) {
                clauses[clauses.count - 1].append(word)
                if word.last.map(marks.contains) == true { clauses.append([]) }
            }
            for var clause in clauses where !clause.isEmpty {
                if !current.isEmpty && current.count + clause.count > limit() { close() }
                while current.count + clause.count > limit() {
                    let room = limit() - current.count
                    current += clause.prefix(room)
                    clause.removeFirst(room)
                    close()
                }
                current += clause
                if firstClauseAlone && pieces.isEmpty { close() }
            }
            close()
        }
        return pieces
    }
}
