import AssistCore
import Foundation
import Media

/// Renders speech into a WAV file instead of playing it (`--speak-to FILE.wav`), through the one
/// libsndfile wrapper in Media.
public struct SpeechFileSink {
    public let url: URL
    /// Silence between utterances, as a listener would hear between announcements.
    public var pauseSeconds: Double

    public init(url: URL, pauseSeconds: Double = 0.4) {
        self.url = url
        self.pauseSeconds = pauseSeconds
    }

    /// Writes the utterances one after another, mono, at the synthesiser's rate.
    public func write(_ utterances: [SpeechAudio]) throws {
        let sampleRate = utterances.first?.sampleRate ?? 22050
        let writer = try AudioFileWriter(url: url, sampleRate: Double(sampleRate), channelCount: 1)
        defer { writer.close() }
        let pause = [Float](repeating: 0, count: Int(pauseSeconds * Double(sampleRate)))
        for (index, utterance) in utterances.enumerated() {
            if index > 0 { try writer.write(pause) }
            try writer.write(utterance.samples.map { Float($0) / 32768 })
        }
    }
}
