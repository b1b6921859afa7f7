import Foundation
import Testing

/// Checks every live scenario shares: how a run starts and ends, and that the speech track is
/// aligned with the input's clock.
enum LiveScenarioChecks {
    /// "Assistive Vision activated." is the first thing said, `closing` the last, and the exit
    /// status is `status`.
    static func expectFramed(_ run: LiveRun, closing: String, status: Int32,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == status, "exit status \(run.status)\n\(run.transcriptListing)", sourceLocation: sourceLocation)
        #expect(run.transcript.first?.spoken == LiveSentences.activated, "\(run.transcriptListing)", sourceLocation: sourceLocation)
        // The closing may be heard in parts (no utterance runs past 3 s): it ends what was said.
        #expect(run.spokenText.hasSuffix(closing), "\(run.transcriptListing)", sourceLocation: sourceLocation)
        let closings = run.timesSaid(closing)
        #expect(closings == 1, "said \(closings) times: \(closing)", sourceLocation: sourceLocation)
    }

    /// The WAV is the input's length (t seconds into the input = t seconds into the WAV; it may
    /// run on only for the closing sentence), there is sound at the start of every transcript
    /// entry, and silence wherever the transcript says nothing for a while.
    static func expectAligned(_ run: LiveRun, inputSeconds: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let audio = run.audio else {
            Issue.record("no readable WAV was written", sourceLocation: sourceLocation)
            return
        }
        let lastEnd = run.transcript.last?.end ?? inputSeconds
        #expect(audio.seconds >= inputSeconds - 0.25, "WAV \(audio.seconds) s for \(inputSeconds) s of input", sourceLocation: sourceLocation)
        #expect(audio.seconds <= max(inputSeconds, lastEnd) + 1.0, "WAV \(audio.seconds) s for \(inputSeconds) s of input, last entry ends at \(lastEnd) s",
                sourceLocation: sourceLocation)
        for entry in run.transcript {
            let peak = audio.peak(from: entry.start, to: min(entry.end, entry.start + 0.5))
            #expect(peak > 0.01, "silence where the transcript has \(entry)", sourceLocation: sourceLocation)
        }
        // Gaps of over a second between entries (and before the first) must be silent inside.
        var previousEnd = 0.0
        for entry in run.transcript {
            if entry.start - previousEnd > 1.0 {
                let peak = audio.peak(from: previousEnd + 0.2, to: entry.start - 0.2)
                let gap = String(format: "sound (peak %.3f) between %.2f s and %.2f s, where the transcript says nothing",
                                 peak, previousEnd, entry.start)
                #expect(peak < 0.005, "\(gap)", sourceLocation: sourceLocation)
            }
            previousEnd = max(previousEnd, entry.end)
        }
    }

    /// Direction words in the order they lie from left to right.
    static let directionsLeftToRight = ["left", "slightly left", "ahead", "slightly right", "right"]

    /// The direction words of "Bus, 3 meters, ahead. Person, 2 meters, slightly left." (or of an
    /// explored list, "2 objects, from left: Person, 2 meters, left; Bus, 3 meters, ahead.") in
    /// order: each sentence's or item's last comma-separated part, where it is one.
    static func directions(in text: String) -> [String] {
        text.split(whereSeparator: { ".;:".contains($0) }).compactMap { sentence in
            let last = sentence.split(separator: ",").last?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            return directionsLeftToRight.contains(last) ? last : nil
        }
    }

    /// The entries heard back to back from the first one on (each starting within half a second
    /// of the end of the one before): what one frame's announcements, or one answer, became.
    static func firstBlock(of entries: [TranscriptEntry]) -> [TranscriptEntry] {
        guard var previous = entries.first else { return [] }
        var block = [previous]
        for entry in entries.dropFirst() {
            guard entry.start - previous.end < 0.5 else { break }
            block.append(entry)
            previous = entry
        }
        return block
    }

    /// A hazard alert: it carries one of the hazard earcons (Speech's Earcon raw values).
    static func isHazardAlert(_ entry: TranscriptEntry) -> Bool {
        entry.tones.contains { ["vehicle", "drop", "obstacle"].contains($0) }
    }

    static func mentions(_ entry: TranscriptEntry, _ words: [String]) -> Bool {
        let text = entry.spoken.lowercased()
        return words.contains { text.contains($0) }
    }
}
