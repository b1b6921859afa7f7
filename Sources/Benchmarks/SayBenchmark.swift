import Foundation
import Perception  // Duration.milliseconds
import Speech
import Synchronization

/// `assist say --benchmark`: the time from queueing a 6-word sentence to its first audible sample being
/// handed to the output (a device paced in real time with 256-frame buffers, as a sound card
/// pulls them), and the voice's real-time factor (synthesis time over speech duration).
public struct SayBenchmark {
    public let voiceSettings: SpeechVoiceSettings

    public init(voiceSettings: SpeechVoiceSettings) { self.voiceSettings = voiceSettings }
    public static let sentences = ["Car, 3 meters, on your left.", "Person, 2 meters, slightly right now.",
                            "Bench, 5 meters, straight ahead here.", "Door, 4 meters, on your right."]

    /// Runs the measurement; returns the lines `assist say --benchmark` prints.
    public func run() throws -> [String] {
        let voice = try SpeechSynthesizer(settings: voiceSettings)
        _ = try voice.synthesize("Warm up.")

        // Real-time factor on a paragraph, several times.
        let paragraph = String(repeating: "Person, 2 meters, slightly left. Chair, 3 meters, right. Door, 5 meters, ahead. ", count: 8)
        let clock = ContinuousClock()
        var synthesisSeconds = 0.0, audioSeconds = 0.0
        for _ in 0..<5 {
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
        var latencies: [Double] = [], enqueueTimes: [Double] = []
        for round in 0..<24 {
            firstAudible.withLock { $0 = nil }
            let start = clock.now
            queue.enqueue(Utterance(Self.sentences[round % Self.sentences.count], priority: .answer))
            enqueueTimes.append((clock.now - start).milliseconds / 1000)
            while firstAudible.withLock({ $0 }) == nil { Thread.sleep(forTimeInterval: 0.0005) }
            latencies.append((firstAudible.withLock { $0! } - start).milliseconds / 1000)
            queue.stop()
            while !queue.isIdle { Thread.sleep(forTimeInterval: 0.002) }
        }
        latencies.sort()
        enqueueTimes.sort()
        func ms(_ s: Double) -> String { String(format: "%.1f ms", s * 1000) }
        var lines: [String] = []
        lines.append("Enqueue to first audible sample handed to the output (6-word sentence, 256-frame buffers at \(Int(queue.sampleRateHz)) Hz, \(latencies.count) runs): median \(ms(latencies[latencies.count / 2])), worst \(ms(latencies.last!)).")
        lines.append("  of which synthesis and planning in enqueue: median \(ms(enqueueTimes[enqueueTimes.count / 2])), worst \(ms(enqueueTimes.last!)); the rest is waiting for the next buffer (at most \(ms(256 / queue.sampleRateHz))).")
        lines.append(String(format: "Real-time factor of the voice at %d words per minute: %.4f (%.1f s of speech synthesised in %.1f ms).",
                     voiceSettings.wordsPerMinute, synthesisSeconds / audioSeconds, audioSeconds, synthesisSeconds * 1000))
        lines.append("A sound card adds its own output latency on top (PortAudio reports it per device).")
        return lines
    }
}
