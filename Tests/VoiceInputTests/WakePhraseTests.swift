import Foundation
import TestSupport
import Media
import Testing
@testable import VoiceInput

@Suite("The wake phrase is spotted in a recording, and nothing else wakes it", .serialized)
struct WakePhraseTests {
    func wakeTimes(saying parts: [String]) throws -> [Double] {
        let folder = try TemporaryFolder.make("voice-tests-wake")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = parts.indices.map { folder.appendingPathComponent("part\($0).wav") }
        try FestivalVoice().synthesize(zip(parts, files).map { SynthesisRequest(text: $0, speakingRate: 1, output: $1) })
        let silence = [Float](repeating: 0, count: 16_000)
        var samples = silence
        for file in files { samples += try AudioFile.read(file).samples + silence }
        let url = folder.appendingPathComponent("all.wav")
        try AudioFile.writeWAV(AudioBuffer(samples: samples, sampleRate: 16_000, channelCount: 1), to: url)
        let spotter = try WakePhraseSpotter(files: try SpeechModelFiles.installed())
        var times: [Double] = []
        try spotter.listen(to: try AudioFileSpeechSource(url: url)) { times.append($0); return true }
        return times
    }

    @Test("\"Assistive Vision\" said once, between other sentences, wakes it once, after it was said")
    func spotted() throws {
        let times = try wakeTimes(saying: ["the weather is nice today", "assistive vision", "scan now"])
        #expect(times.count == 1, "\(times)")
        // One second of silence, the first sentence and a second of silence come before it.
        #expect((times.first ?? 0) > 2)
    }

    @Test("the model weighs the phrase read in place of other words: its own words cost nothing, other words something")
    func weighsReadings() throws {
        let folder = try TemporaryFolder.make("voice-tests-wake-reading")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("phrase.wav")
        try FestivalVoice().synthesize([SynthesisRequest(text: "hello, assistive vision", speakingRate: 1, output: url)])
        let samples = RecognizerAudio.samples(from: try AudioFile.read(url)).map { Float($0) / 32_768 }
        let transcriber = try MoonshineTranscriber(files: try SpeechModelFiles.installed())
        transcriber.alternative = { _ in "hello assistive vision" }
        let own = try transcriber.transcribe(samples)
        #expect(own.alternative?.text == "hello assistive vision")
        #expect((own.alternative?.logProbabilityGap ?? -.infinity) > -8, "\(own)")
        transcriber.alternative = { _ in "turn the radio off" }
        let other = try transcriber.transcribe(samples)
        #expect((other.alternative?.logProbabilityGap ?? 0) < -8, "\(other)")
        #expect(other.text == own.text)
    }

    @Test("speech without the phrase does not wake it")
    func notSpotted() throws {
        #expect(try wakeTimes(saying: ["the weather is nice today", "scan now", "television is on"]).isEmpty)
    }
}

@Suite("The wake benchmark runs end to end on synthesised speech", .serialized)
struct WakeBenchmarkRunTests {
    @Test("the phrase said alone wakes it once; other speech with noise between wakes it never")
    func runs() throws {
        let folder = try TemporaryFolder.make("voice-tests-wake-bench")
        defer { try? FileManager.default.removeItem(at: folder) }
        let benchmark = WakeBenchmark(voices: [FestivalVoice()],
                                      renderings: [WakeRendering(text: "assistive vision", speakingRate: 1, condition: .clean)],
                                      sentences: ["turn the television off please", "the weather is nice today", "thank you for your assistance"])
        let result = try benchmark.run(spotter: try WakePhraseSpotter(files: try SpeechModelFiles.installed()), workFolder: folder)
        #expect(result.trials.map(\.wakes) == [1], "\(result.trials)")
        #expect((result.trials.first?.endDetectionMilliseconds ?? -1) > 0)
        #expect(result.falseAlarms.count == 1)
        #expect(result.falseAlarms.first?.falseWakes == [], "\(result.falseAlarms)")
        #expect((result.falseAlarms.first?.utterancesTranscribed ?? 0) > 0)
        #expect((result.falseAlarms.first?.audioSeconds ?? 0) > 6)
    }
}
