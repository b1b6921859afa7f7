import Foundation
import VoiceInput

/// `assist bench wake`'s report: the renderings of the phrase (woken or not, how soon) and the
/// speech without it (false wakes, CPU), with issue 35's target stated beside each.
public struct WakeBenchReport: Encodable {
    public let trials: [WakeTrial]
    public let falseAlarms: [WakeFalseAlarmRun]
    public let summary: WakeSummary

    public init(_ result: WakeBenchmark.Result) {
        trials = result.trials
        falseAlarms = result.falseAlarms
        summary = WakeSummary(trials: result.trials, falseAlarms: result.falseAlarms)
    }

    public func table() -> String {
        func ms(_ value: Double?) -> String { value.map { String(format: "%.0f ms", $0) } ?? "–" }
        var lines: [String] = []
        if !trials.isEmpty {
            lines.append(String(format: "The wake phrase: woken on %d of %d renderings (%.1f %%; target ≥ 95 %%: %@)",
                                summary.woken, summary.renderings, Double(summary.woken) / Double(summary.renderings) * 100,
                                (summary.wokenOften ? "met" : "not met") as NSString))
            for voice in Self.ordered(trials.map(\.voice)) {
                let own = trials.filter { $0.voice == voice }
                lines.append("  \(voice): \(own.filter(\.woken).count)/\(own.count)")
            }
            lines.append("  end of the phrase → woken: median \(ms(summary.medianLatencyMilliseconds)), worst \(ms(summary.worstLatencyMilliseconds)) "
                         + "(of which the detector's wait for silence, median \(ms(summary.medianEndDetectionMilliseconds))); woken twice by one rendering: \(summary.repeatedWakes)")
            for trial in trials where !trial.woken || trial.wakes > 1 {
                lines.append("  \(trial.woken ? "woken \(trial.wakes)×" : "not woken"): [\(trial.voice)] “\(trial.said)” ×\(trial.speakingRate), \(trial.condition): heard “\(trial.heard.joined(separator: " | "))”")
            }
        }
        if !falseAlarms.isEmpty {
            lines.append(String(format: "Speech without the phrase: %.1f minutes of audio (%.1f of speech), %d false wakes (target 0 in ≥ 30 minutes: %@)",
                                summary.audioMinutes, summary.speechMinutes, summary.falseWakes,
                                (summary.neverFalselyWoken ? "met" : summary.falseWakes == 0 ? "none, but under 30 minutes" : "not met") as NSString))
            for run in falseAlarms {
                lines.append(String(format: "  %@: %d sentences, %.1f min, %d utterances transcribed (%d checked against the phrase), %d false wakes, CPU %.0f s (%.1f %% of one core)",
                                    run.voice as NSString, run.sentences, run.audioSeconds / 60, run.utterancesTranscribed, run.checked.count, run.falseWakes.count,
                                    run.cpuSeconds, run.audioSeconds > 0 ? run.cpuSeconds / run.audioSeconds * 100 : 0))
                for wake in run.falseWakes {
                    lines.append(String(format: "    at %.1f s: heard “%@” (said “%@”)", wake.audioSeconds, wake.heard as NSString, wake.said as NSString))
                }
            }
            if let cpu = summary.cpuPercentOfOneCore {
                lines.append(String(format: "  listening CPU over all voices: %.1f %% of one core (speech most of the time: a busy room, not a quiet one)", cpu))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Names in the order first seen.
    static func ordered(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }
}
