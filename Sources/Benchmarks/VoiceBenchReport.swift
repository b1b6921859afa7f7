import Foundation
import VoiceInput

/// `assist bench voice`'s report: every trial, the summaries by condition, the human recordings.
public struct VoiceBenchReport: Encodable {
    public let trials: [RecognitionTrial]
    public let human: HumanSpeechResult
    public let missingWords: [String]
    public let addedWords: [String: String]
    public let summaries: [String: RecognitionSummary]

    public init(trials: [RecognitionTrial], human: HumanSpeechResult, missingWords: [String], addedWords: [String: String]) {
        self.addedWords = addedWords
        self.trials = trials
        self.human = human
        self.missingWords = missingWords
        var summaries = Dictionary(grouping: trials, by: \.condition).mapValues(RecognitionSummary.init)
        summaries["all noisy"] = RecognitionSummary(trials.filter { !$0.isClean })
        self.summaries = summaries
    }

    public func table() -> String {
        var lines = ["Command recognition (festival cmu_us_slt_arctic_hts, \(Set(trials.map(\.speakingRate)).count) rates):"]
        func ms(_ value: Double?) -> String { value.map { String(format: "%.0f ms", $0) } ?? "–" }
        for (name, summary) in summaries.sorted(by: { $0.key < $1.key }) {
            lines.append(String(format: "  %-32@ %3d/%3d = %5.1f %%   latency median %@, worst %@%@",
                                name as NSString, summary.correct, summary.trials, summary.accuracy * 100,
                                ms(summary.medianLatencyMilliseconds) as NSString, ms(summary.worstLatencyMilliseconds) as NSString,
                                (summary.unclosed > 0 ? "  (\(summary.unclosed) not closed by the detector)" : "") as NSString))
            lines.append(String(format: "  %-32@ wrong command acted on %d, refused as too noisy %d, recogniser alone %d/%d right, median estimated SNR %@",
                                "" as NSString, summary.wrongActions, summary.refusedAsTooNoisy, summary.recognizedCorrectly, summary.trials,
                                (summary.medianEstimatedSNRDecibels.map { String(format: "%.1f dB", $0) } ?? "∞") as NSString))
        }
        let wrong = trials.filter { !$0.correct && !$0.refusedAsTooNoisy }
        if !wrong.isEmpty {
            lines.append("Misrecognised:")
            for trial in wrong {
                lines.append("  “\(trial.said)” ×\(trial.speakingRate), \(trial.condition): heard “\(trial.heard)” (confidence \(String(format: "%.2f", trial.confidence)), \(trial.estimatedSNRDecibels.map { String(format: "%.1f dB", $0) } ?? "∞"))")
            }
        }
        if !addedWords.isEmpty {
            lines.append("Pronunciations built for words the dictionary lacks: " + addedWords.sorted { $0.key < $1.key }.map { "\($0.key) [\($0.value)]" }.joined(separator: ", "))
        }
        let refused = trials.filter(\.refusedAsTooNoisy).count
        if refused > 0 { lines.append("Refused as too noisy (the user hears so, nothing is done): \(refused) trials, not listed.") }
        if !missingWords.isEmpty { lines.append("Words without a pronunciation (left out of the grammar): \(missingWords.joined(separator: ", "))") }
        lines.append(String(format: "Recorded human speech (pocketsphinx-testdata, general language model): WER %.1f %% over %d words in %d recordings",
                            human.wordErrors.rate * 100, human.wordErrors.referenceWords, human.recordings.count))
        for recording in human.recordings {
            lines.append("  \(recording.name): “\(recording.heard)” (\(recording.wordErrors.errors)/\(recording.wordErrors.referenceWords) errors)")
        }
        return lines.joined(separator: "\n")
    }
}
