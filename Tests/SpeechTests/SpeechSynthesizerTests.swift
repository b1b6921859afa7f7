import Foundation
import Media
import Testing
@testable import Speech

@Suite("Speaking with espeak-ng", .serialized)
struct SpeechSynthesizerTests {
    @Test("a sentence becomes non-silent audio of about the length speech takes")
    func speaksSentence() throws {
        let audio = try SpeechSynthesizer().synthesize("Bus, 4 meters, ahead.")
        #expect(audio.sampleRate == 22050)
        // Four words at 175 words per minute take about 1.4 s; espeak adds short pauses.
        #expect(audio.durationSeconds > 0.8 && audio.durationSeconds < 3)
        let peak = audio.samples.map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 1000)
    }

    @Test("faster speech is shorter")
    func rateChangesDuration() throws {
        let text = "Person, 2 meters, slightly left. Chair, 3 meters, right."
        let slow = try SpeechSynthesizer(settings: SpeechVoiceSettings(wordsPerMinute: 120)).synthesize(text)
        let fast = try SpeechSynthesizer(settings: SpeechVoiceSettings(wordsPerMinute: 400)).synthesize(text)
        #expect(fast.durationSeconds < slow.durationSeconds * 0.6)
    }

    @Test("empty text, unknown voices and out-of-range rates are refused with a sentence")
    func badInput() throws {
        #expect(throws: SpeechError.emptyText) { try SpeechSynthesizer().synthesize("   ") }
        #expect(throws: SpeechError.self) { try SpeechSynthesizer(settings: SpeechVoiceSettings(voice: "klingon-xx")) }
        do { _ = try SpeechSynthesizer(settings: SpeechVoiceSettings(voice: "klingon-xx")) } catch {
            #expect(error.userMessage.contains(" en-us,") && error.userMessage.contains(" fr-fr,"))
        }
        #expect(throws: SpeechError.outOfRange(field: "rate in words per minute", value: 20, allowed: 80...450)) {
            try SpeechSynthesizer(settings: SpeechVoiceSettings(wordsPerMinute: 20))
        }
    }

    @Test("10 000 characters of text are spoken without failing")
    func longText() throws {
        let text = String(repeating: "Person ahead. ", count: 720)
        let audio = try SpeechSynthesizer(settings: SpeechVoiceSettings(wordsPerMinute: 450)).synthesize(text)
        #expect(audio.durationSeconds > 60)
    }
}

@Suite("Rendering speech to a WAV file")
struct SpeechFileTests {
    @Test("two sentences become one WAV with a pause between them, as long as the speech plus the pause")
    func writesWAV() throws {
        let synthesizer = try SpeechSynthesizer()
        let first = try synthesizer.synthesize("Bus, 4 meters, ahead.")
        let second = try synthesizer.synthesize("Person, 2 meters, slightly left.")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("speech-\(UUID()).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        try SpeechFileSink(url: url, pauseSeconds: 0.5).write([first, second])
        let reader = try AudioFileReader(url: url)
        #expect(reader.sampleRate == 22050 && reader.channelCount == 1)
        #expect(abs(Double(reader.frameCount) / 22050 - (first.durationSeconds + 0.5 + second.durationSeconds)) < 0.01)
    }

    @Test("an unwritable path is refused with a sentence naming it")
    func unwritable() throws {
        let audio = try SpeechSynthesizer().synthesize("Hello.")
        #expect(throws: AudioFileError.self) {
            try SpeechFileSink(url: URL(fileURLWithPath: "/nonexistent/folder/out.wav")).write([audio])
        }
    }
}
