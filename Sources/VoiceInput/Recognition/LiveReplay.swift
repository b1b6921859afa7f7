import Foundation

/// An utterance heard in a replay, with the moment it would have been ready live.
public struct ReplayedUtterance: Sendable, Equatable {
    public let utterance: RecognizedUtterance
    /// Stream time (seconds) at which the result would be in hand had the audio arrived live:
    /// the chunk's arrival, any backlog of processing, plus the processing itself.
    public let readySeconds: Double
}

/// Feeds recorded audio to a recogniser as a microphone would: 20 ms chunks, each arriving when
/// its last sample has been "spoken". Processing runs as fast as it can, but the result of a
/// chunk cannot come before the chunk arrives and processing cannot start before the previous
/// chunk is done, so `readySeconds` is what a live user would wait for.
public struct LiveReplay {
    public static let chunkSamples = 320  // 20 ms at 16 kHz

    public init() {}

    public func run(_ samples: [Int16], through recognizer: any UtteranceFinding) throws -> [ReplayedUtterance] {
        let clock = ContinuousClock()
        let startAudio = recognizer.audioSeconds
        var busyUntil = 0.0
        var heard: [ReplayedUtterance] = []
        try samples.withUnsafeBufferPointer { all in
            for start in stride(from: 0, to: all.count, by: Self.chunkSamples) {
                let chunk = UnsafeBufferPointer(rebasing: all[start..<min(start + Self.chunkSamples, all.count)])
                let arrival = Double(start + chunk.count) / RecognizerAudio.sampleRateHz
                let began = clock.now
                let utterance = try recognizer.push(chunk)
                busyUntil = max(arrival, busyUntil) + seconds(began.duration(to: clock.now))
                if let utterance { heard.append(ReplayedUtterance(utterance: utterance, readySeconds: busyUntil)) }
            }
            let began = clock.now
            if let utterance = try recognizer.finish() {
                let end = Double(all.count) / RecognizerAudio.sampleRateHz
                busyUntil = max(end, busyUntil) + seconds(began.duration(to: clock.now))
                heard.append(ReplayedUtterance(utterance: utterance, readySeconds: busyUntil))
            }
        }
        // Times relative to this replay's first sample.
        return heard.map { replayed in
            let u = replayed.utterance
            var shifted = RecognizedUtterance(text: u.text, confidence: u.confidence,
                                              speechStartSeconds: u.speechStartSeconds - startAudio,
                                              endDetectedSeconds: u.endDetectedSeconds - startAudio,
                                              finishingSeconds: u.finishingSeconds,
                                              signalToNoiseDecibels: u.signalToNoiseDecibels)
            shifted.transcription = u.transcription
            return ReplayedUtterance(utterance: shifted, readySeconds: replayed.readySeconds)
        }
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
