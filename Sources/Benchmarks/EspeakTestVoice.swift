import Foundation
import Media
import Speech
import VoiceInput

/// espeak-ng (the product's own speech engine) as a test voice for the recognition benchmark:
/// a formant voice, far from festival's recorded-speech HTS voice, so that the recogniser is not
/// measured on one speaker only. Rate 1 is `wordsPerMinute`; 1.25 a quarter faster.
public struct EspeakTestVoice: TestVoice {
    /// espeak-ng's voice name: "en-us", or "en" (British English, its "en-gb").
    public let voice: String
    public let wordsPerMinute: Int

    public init(voice: String, wordsPerMinute: Int = 160) {
        self.voice = voice
        self.wordsPerMinute = wordsPerMinute
    }

    public var name: String { "espeak-ng \(voice == "en" ? "en-gb" : voice)" }

    public func synthesize(_ requests: [SynthesisRequest]) throws {
        for request in requests {
            let rate = min(max(Int((Double(wordsPerMinute) * request.speakingRate).rounded()), SpeechVoiceSettings.rateRange.lowerBound),
                           SpeechVoiceSettings.rateRange.upperBound)
            let synthesizer = try SpeechSynthesizer(settings: SpeechVoiceSettings(voice: voice, wordsPerMinute: rate))
            let audio = try synthesizer.synthesize(request.text)
            try AudioFile.writeWAV(AudioBuffer(samples: audio.samples.map { Float($0) / 32_768 }, sampleRate: Double(audio.sampleRate), channelCount: 1),
                                   to: request.output)
        }
    }

    /// A voice by its benchmark name: "festival" (slt), "espeak-en-us", "espeak-en-gb", "piper", "piper-fast"; nil if unknown.
    public static func named(_ name: String) -> (any TestVoice)? {
        switch name {
        case "festival": return FestivalVoice()
        case "espeak-en-us": return EspeakTestVoice(voice: "en-us")
        case "espeak-en-gb": return EspeakTestVoice(voice: "en")
        case "piper": return PiperTestVoice()
        case "piper-fast": return PiperTestVoice(pace: 1.25)
        default: return nil
        }
    }
}
