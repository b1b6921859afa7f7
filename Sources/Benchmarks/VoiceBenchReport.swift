import Foundation
import VoiceInput

/// `assist bench voice`'s report: every trial, the summaries by condition, the human recordings.
public struct VoiceBenchReport: Encodable {
    public let trials: [RecognitionTrial]
    public let human: HumanSpeechResult
    public let summaries: [String: RecognitionSummary]
    /// Said once (e.g. that the sentence model is missing and only exact phrases were understood).
    public let notes: [String]

    public init(trials: [RecognitionTrial], human: HumanSpeechResult, notes: [String] = []) {
        self.notes = notes
        self.trials = trials
        self.human = human
        // Commands by decoding, voice and condition, and over all voices; non-commands by decoding
        // and condition over all voices (there, a "wrong command acted on" is any action at all).
        let commands = trials.filter(\.isCommand), others = trials.filter { !$0.isCommand }
        var summaries = Dictionary(grouping: commands, by: { "\($0.decoding) · \($0.voice) · \($0.condition)" }).mapValues(RecognitionSummary.init)
        for (key, group) in Dictionary(grouping: commands, by: { "\($0.decoding) · all voices · \($0.condition)" }) {
            summaries[key] = RecognitionSummary(group)
        }
        for (key, group) in Dictionary(grouping: commands.filter { !$0.isClean }, by: { "\($0.decoding) · all voices · all noisy" }) {
            summaries[key] = RecognitionSummary(group)
        }
        for (key, group) in Dictionary(grouping: others, by: { "\($0.decoding) · non-commands · \($0.condition)" }) {
            summaries[key] = RecognitionSummary(group)
        }
        self.summaries = summaries
    }

    public func table() -> String {
        var lines = ["Command recognition (\(Set(trials.map(\.voice)).sorted().joined(separator: ", ")); \(Set(trials.map(\.speakingRate)).count) rates):"]
        lines += notes
        func ms(_ value: Double?) -> String { value.map { String(format: "%.0f ms", $0) } ?? "–" }
        for (name, summary) in summaries.sorted(by: { $0.key < $1.key }) {
            lines.append(String(format: "  %-56@ %3d/%3d = %5.1f %% right, asked about the right one %d,  latency median %@, worst %@%@",
                                name as NSString, summary.correct, summary.trials, summary.accuracy * 100, summary.askedAboutRightCommand,
                                ms(summary.medianLatencyMilliseconds) as NSString, ms(summary.worstLatencyMilliseconds) as NSString,
                                (summary.unclosed > 0 ? "  (\(summary.unclosed) not closed by the detector)" : "") as NSString))
            if let parts = summary.latencyParts {
                lines.append(String(format: "  %-56@ latency p95 %@; medians: end detected %@ after the speech, encoder %@ (%.2f s of audio), decoder %@ (%d steps); made ahead %d",
                                    "" as NSString, ms(summary.percentile95LatencyMilliseconds) as NSString, ms(parts.endDetectionMilliseconds) as NSString,
                                    ms(parts.encoderMilliseconds) as NSString, parts.encodedAudioSeconds, ms(parts.decoderMilliseconds) as NSString,
                                    parts.decoderSteps, parts.madeAhead))
                lines.append(String(format: "  %-56@ with the understanding (median %@): end of speech → command decided, median %@, p95 %@",
                                    "" as NSString, ms(parts.understandingMilliseconds) as NSString,
                                    ms(parts.decidedMedianMilliseconds) as NSString, ms(parts.decidedPercentile95Milliseconds) as NSString))
            }
            lines.append(String(format: "  %-56@ wrong command acted on %d, refused as too noisy %d, recogniser alone %d/%d right, median estimated SNR %@",
                                "" as NSString, summary.wrongActions, summary.refusedAsTooNoisy, summary.recognizedCorrectly, summary.trials,
                                (summary.medianEstimatedSNRDecibels.map { String(format: "%.1f dB", $0) } ?? "∞") as NSString))
        }
        let wrong = trials.filter { $0.actedOnWrongCommand }
        if !wrong.isEmpty {
            lines.append("Acted on wrongly:")
            for trial in wrong {
                lines.append("  [\(trial.decoding), \(trial.voice)] “\(trial.said)” ×\(trial.speakingRate), \(trial.condition): acted as \(trial.understoodAs ?? "?"), heard “\(trial.heard)” (confidence \(String(format: "%.2f", trial.confidence)), \(trial.estimatedSNRDecibels.map { String(format: "%.1f dB", $0) } ?? "∞"))")
            }
        }
        let refused = trials.filter(\.refusedAsTooNoisy).count
        if refused > 0 { lines.append("Refused as too noisy (the user hears so, nothing is done): \(refused) trials, not listed.") }
        lines.append(String(format: "Recorded human speech (Debian's pocketsphinx-testdata recordings, no phrase favoured): WER %.1f %% over %d words in %d recordings",
                            human.wordErrors.rate * 100, human.wordErrors.referenceWords, human.recordings.count))
        for recording in human.recordings {
            lines.append("  \(recording.name): “\(recording.heard)” (\(recording.wordErrors.errors)/\(recording.wordErrors.referenceWords) errors)")
        }
        return lines.joined(separator: "\n")
    }
}
