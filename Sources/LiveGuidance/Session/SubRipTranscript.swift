import Foundation
import Speech

/// One thing heard: when it started and ended on the session clock, and what it was.
public struct TranscriptEntry: Sendable, Equatable {
    public var startSeconds: Double
    public var endSeconds: Double
    /// "[tone vehicle] Bus, 4 meters, ahead.": the phrases joined by a space, after the earcon.
    public var text: String

    public init(startSeconds: Double, endSeconds: Double, text: String) {
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.text = text
    }

    /// The transcript form of an utterance (the `--transcript` contract).
    public static func text(for utterance: Utterance) -> String {
        var parts: [String] = []
        if let earcon = utterance.earcon { parts.append("[tone \(earcon.rawValue)]") }
        if !utterance.text.isEmpty { parts.append(utterance.text) }
        return parts.joined(separator: " ")
    }
}

/// A SubRip (.srt) file: numbered entries, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, the text, a blank line.
public enum SubRipTranscript {
    public static func render(_ entries: [TranscriptEntry]) -> String {
        entries.enumerated().map { index, entry in
            "\(index + 1)\n\(timestamp(entry.startSeconds)) --> \(timestamp(max(entry.endSeconds, entry.startSeconds)))\n\(entry.text)\n"
        }.joined(separator: "\n")
    }

    /// "00:01:02,345"; negative times are written as 0.
    public static func timestamp(_ seconds: Double) -> String {
        let milliseconds = Int((max(seconds, 0) * 1000).rounded())
        let hours = milliseconds / 3_600_000
        let minutes = milliseconds / 60_000 % 60
        let wholeSeconds = milliseconds / 1000 % 60
        return String(format: "%02d:%02d:%02d,%03d", hours, minutes, wholeSeconds, milliseconds % 1000)
    }
}

/// Everything the queue played in a run. The queue's own log keeps only the latest 256
/// utterances, so the session copies it after each render or frame, converting audio time to
/// the session clock.
final class PlaybackHistory {
    struct Heard {
        let id: Int
        let utterance: Utterance
        var startSeconds: Double
        var endSeconds: Double?
    }
    private(set) var heard: [Heard] = []
    private var indexByID: [Int: Int] = [:]

    /// Copies new and finished records from `queue`. `sessionSecondsAtAudioZero` is where audio
    /// time 0 lies on the session clock (0 offline, where the two are the same clock). Returns
    /// the utterances that started being heard since the last call, in order.
    @discardableResult
    func collect(from queue: UtteranceQueue, sessionSecondsAtAudioZero offset: Double) -> [Heard] {
        let rate = queue.sampleRateHz
        var started: [Heard] = []
        for record in queue.playbackLog {
            let start = Double(record.startFrame) / rate + offset
            let end = record.endFrame.map { Double($0) / rate + offset }
            if let index = indexByID[record.id] {
                if heard[index].endSeconds == nil { heard[index].endSeconds = end }
            } else {
                indexByID[record.id] = heard.count
                heard.append(Heard(id: record.id, utterance: record.utterance, startSeconds: start, endSeconds: end))
                started.append(heard[heard.count - 1])
            }
        }
        return started
    }

    func startSeconds(ofQueueID id: Int) -> Double? {
        indexByID[id].map { heard[$0].startSeconds }
    }

    /// The transcript; an utterance cut off by the end of the run ends where the run ended.
    func transcript(endingAt endSeconds: Double) -> [TranscriptEntry] {
        heard.map { item in
            TranscriptEntry(startSeconds: item.startSeconds, endSeconds: item.endSeconds ?? max(endSeconds, item.startSeconds),
                            text: TranscriptEntry.text(for: item.utterance))
        }
    }
}
