import AssistCore
import Foundation
import Perception  // Duration.milliseconds
import Speech
import Synchronization

/// `assist say --benchmark`: the time from queueing a sentence to its first audible sample being
/// handed to the output (a device paced in real time with 256-frame buffers, as a sound card
/// pulls them), and the voice's real-time factor (synthesis time over speech duration).
/// For the natural voice, which keeps what it said, each sentence is measured the first time
/// (not cached) and again (cached), and hazard warnings it does not have ready (said by the fast voice).
public struct SayBenchmark {
    public let voiceSettings: SpeechVoiceSettings

    public init(voiceSettings: SpeechVoiceSettings) { self.voiceSettings = voiceSettings }
    public static let sentences = ["Car, 3 meters, on your left.", "Person, 2 meters, slightly right now.",
                            "Bench, 5 meters, straight ahead here.", "Door, 4 meters, on your right.",
                            "Bicycle, 6 meters, slightly left.", "Chair, 1 meter, straight ahead.",
                            "Bus, 8 meters, on your right.", "Dog, 2 meters, on your left.",
                            "Traffic light, 10 meters, ahead.", "Two people, 3 meters, slightly left.",
                            "Stop sign, 7 meters, on your right.", "Bottle, 1 meter, slightly right."]
    /// Sentences of 2.5–3 s at the voice's own pace, the longest said in one part.
    static let longSentences = ["Crossing ahead, the light for pedestrians is red, wait here.",
                                "Two people are talking near the door, about four meters ahead.",
                                "The bus stop is on your right, with a bench beside it.",
                                "A bicycle is parked across the pavement, keep to the left.",
                                "There is a step down at the end of this corridor.",
                                "Your coffee cup is on the table, slightly to your right.",
                                "The lift doors are open, three meters straight ahead of you.",
                                "A parked car blocks the kerb, go around it on the road side."]
    static let hazards = ["Car, 2 meters, left, approaching.", "Step down, 1 meter, ahead.",
                          "Bicycle, 3 meters, right, approaching.", "Pole, 1 meter, straight ahead."]

    /// Runs the measurement; returns the lines `assist say --benchmark` prints.
    public func run() throws -> [String] {
        let chosen = try VoiceCatalog.start(voiceSettings)
        if let notice = chosen.fallbackNotice { throw SayBenchmarkError.voiceUnavailable(notice) }
        let voice = chosen.voice
        let natural = voice as? NaturalVoice
        _ = try voice.synthesize("Warm up.")

        // Real-time factor on a paragraph, several times (each one different, so none is cached).
        let repeats = natural == nil ? 8 : 1
        let clock = ContinuousClock()
        var synthesisSeconds = 0.0, audioSeconds = 0.0
        for run in 0..<5 {
            let paragraph = String(repeating: "Person, 2 meters, slightly left. Chair, 3 meters, right. Door, 5 meters, ahead. ", count: repeats)
                + "Run \(run + 1)."
            let start = clock.now
            let audio = try voice.synthesize(paragraph)
            synthesisSeconds += (clock.now - start).milliseconds / 1000
            audioSeconds += audio.durationSeconds
        }

        // Enqueue to first sample.
        let firstAudible = Mutex<ContinuousClock.Instant?>(nil)
        let device = PacedNullPlayback(framesPerBuffer: 256) { block in
            if block.contains(where: { $0 != 0 }) {
                firstAudible.withLock { if $0 == nil { $0 = ContinuousClock().now } }
            }
        }
        let queue = UtteranceQueue(voice: voice, settings: UtteranceQueueSettings(cooldownSeconds: 0))
        let speaker = SpeakerOutput(queue: queue, device: device,
                                    feedback: Feedback(queue: queue, vibration: nil, report: { _ in }))
        try speaker.start()
        defer { device.stop() }
        var plannedSpeechSeconds: [String: Double] = [:]
        func measure(_ texts: [String], priority: UtterancePriority) -> (latencies: [Double], enqueueTimes: [Double]) {
            var latencies: [Double] = [], enqueueTimes: [Double] = []
            for text in texts {
                firstAudible.withLock { $0 = nil }
                let start = clock.now
                if case .queued(let plan) = queue.enqueue(Utterance(text, priority: priority)) {
                    plannedSpeechSeconds[text] = plan.laterParts.reduce(plan.speechSeconds) { $0 + $1.speechSeconds }
                }
                enqueueTimes.append((clock.now - start).milliseconds / 1000)
                while firstAudible.withLock({ $0 }) == nil { Thread.sleep(forTimeInterval: 0.0005) }
                latencies.append((firstAudible.withLock { $0! } - start).milliseconds / 1000)
                queue.stop()
                while !queue.isIdle { Thread.sleep(forTimeInterval: 0.002) }
            }
            return (latencies.sorted(), enqueueTimes.sorted())
        }
        func ms(_ s: Double) -> String { String(format: "%.1f ms", s * 1000) }
        var lines: [String] = []
        func report(_ what: String, _ result: (latencies: [Double], enqueueTimes: [Double])) {
            let (latencies, enqueueTimes) = result
            lines.append("Enqueue to first audible sample handed to the output (\(what), 256-frame buffers at \(Int(queue.sampleRateHz)) Hz, \(latencies.count) runs): median \(ms(latencies[latencies.count / 2])), worst \(ms(latencies.last!)).")
            lines.append("  enqueue (synthesis and planning of the whole sentence; a streamed one is heard from its first piece meanwhile): median \(ms(enqueueTimes[enqueueTimes.count / 2])), worst \(ms(enqueueTimes.last!)); a buffer lasts \(ms(256 / queue.sampleRateHz)).")
        }
        if let natural {
            report("natural voice, sentences not said before", measure(Self.sentences, priority: .answer))
            report("natural voice, 2.5–3 s sentences not said before", measure(Self.longSentences, priority: .answer))
            // What streaming's cuts (some inside a phrase) do to the sentence: its length said in
            // pieces against the same sentence made whole (clause by clause, as the cache would have it).
            let streamed = Self.longSentences.reduce(0) { $0 + (plannedSpeechSeconds[$1] ?? 0) }
            let whole = try Self.longSentences.reduce(0) { $0 + (try natural.synthesize($1).durationSeconds) }
            lines.append(String(format: "  streamed, these %d sentences last %.2f s in all; made whole, %.2f s (the difference is the pauses at the cuts, and VITS's own variation).",
                                Self.longSentences.count, streamed, whole))
            report("natural voice, the same sentences again (cached)", measure(Self.sentences, priority: .answer))
            let before = natural.counts.saidByFastVoice
            report("hazard warnings not ready, said by the fast voice", measure(Self.hazards, priority: .hazard))
            lines.append("  \(natural.counts.saidByFastVoice - before) of \(Self.hazards.count) hazard warnings were said by the fast voice; the natural one is prepared for next time.")
        } else {
            report("6-word sentences", measure((0..<24).map { Self.sentences[$0 % 4] }, priority: .answer))
        }
        lines.append(String(format: "Real-time factor of the \(natural == nil ? "fast voice (espeak-ng)" : "natural voice") at %d words per minute: %.4f (%.1f s of speech synthesised in %.1f ms).",
                     voiceSettings.wordsPerMinute, synthesisSeconds / audioSeconds, audioSeconds, synthesisSeconds * 1000))
        lines.append(String(format: "Silence inside streamed sentences while the voice made their next piece: %.1f ms in all.", queue.starvedSeconds * 1000))
        lines.append("A sound card adds its own output latency on top (PortAudio reports it per device).")
        return lines
    }
}

enum SayBenchmarkError: UserFacingError {
    case voiceUnavailable(String)
    var userMessage: String {
        switch self { case .voiceUnavailable(let notice): return notice.replacingOccurrences(of: "; the fast voice speaks instead", with: "; nothing to measure") }
    }
}
