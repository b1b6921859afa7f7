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

    @Test("speech without the phrase does not wake it")
    func notSpotted() throws {
        #expect(try wakeTimes(saying: ["the weather is nice today", "scan now", "television is on"]).isEmpty)
    }
}
