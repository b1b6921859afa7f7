import Foundation
import Media
import Speech
import VoiceInput

/// The product's natural voice (Piper en_US-joe-medium, `NaturalVoice`, installed by
/// scripts/setup) as a test voice for the recognition benchmark: natural-sounding speech of a man,
/// where festival's is a woman's. The target names it at normal and fast speed; `pace`
/// multiplies its own rate (1.25, a quarter faster, is "piper-fast", as 1.25 is the benchmark's
/// fast rate for the other voices), and each request's rate multiplies that again.
public struct PiperTestVoice: TestVoice {
    public let pace: Double

    public init(pace: Double = 1) {
        self.pace = pace
    }

    public var name: String { pace == 1 ? "piper joe" : "piper joe ×\(pace)" }

    public func synthesize(_ requests: [SynthesisRequest]) throws {
        guard !requests.isEmpty else { return }
        let folder = VoiceCatalog.naturalVoiceFolder()
        var voices: [Int: NaturalVoice] = [:]  // one per rate: a voice's rate is fixed when it is loaded
        for request in requests {
            let wordsPerMinute = min(max(Int((Double(SpeechVoiceSettings().wordsPerMinute) * pace * request.speakingRate).rounded()),
                                         SpeechVoiceSettings.rateRange.lowerBound), SpeechVoiceSettings.rateRange.upperBound)
            if voices[wordsPerMinute] == nil {
                voices[wordsPerMinute] = try NaturalVoice(folder: folder, settings: SpeechVoiceSettings(wordsPerMinute: wordsPerMinute))
            }
            let audio = try voices[wordsPerMinute]!.synthesize(request.text)
            try AudioFile.writeWAV(AudioBuffer(samples: audio.samples.map { Float($0) / 32_768 }, sampleRate: Double(audio.sampleRate), channelCount: 1),
                                   to: request.output)
        }
    }
}
