
extension Utterance {
    /// What `assist say` queues: each sentence its own message, so a long text is read whole; the
    /// tone (and the caller's vibration) go with the first. Without words, the tone alone (the
    /// obstacle tone when none is named).
    public static func toSay(text: String?, tone: Earcon?, directionDegrees: Double?, severity: Double) -> [Utterance] {
        let sentences = text.map { Utterance.sentences(in: $0) } ?? []
        let utterances = sentences.enumerated().map { number, sentence in
            Utterance(sentence, priority: .answer, directionDegrees: directionDegrees, contentKey: "say#\(number)",
                      earcon: number == 0 ? tone : nil, severity: severity)
        }
        return utterances.isEmpty
            ? [.tone(tone ?? .obstacleHazard, priority: .answer, directionDegrees: directionDegrees, severity: severity)]
            : utterances
    }
}
