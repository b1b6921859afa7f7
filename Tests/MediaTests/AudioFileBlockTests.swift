import Foundation
import TestSupport
@testable import Media
import Testing

@Suite("Reading audio files in blocks")
struct AudioFileBlockTests {
    @Test("a file of many channels is read whole, sample for sample, across blocks of about 64 Ki samples")
    func manyChannels() throws {
        let folder = try TemporaryFolder.make("audio-blocks")
        defer { try? FileManager.default.removeItem(at: folder) }
        // 3 channels: blocks of 21,845 frames, so 70,001 frames end in a part block.
        let channels = 3, frames = 70_001
        let samples = (0..<(channels * frames)).map { Float(($0 % 2001) - 1000) / 1024 }
        let url = folder.appendingPathComponent("three.wav")
        try AudioFile.writeWAV(AudioBuffer(samples: samples, sampleRate: 16_000, channelCount: channels), to: url, encoding: .float32)
        let read = try AudioFile.read(url)
        #expect(read.channelCount == channels)
        #expect(read.frameCount == frames)
        #expect(read.samples == samples)
    }

    @Test("a WAV header that declares 514 channels and holds no samples is refused as empty, in one sentence")
    func manyChannelsNoSamples() throws {
        // The fuzzer's 55-byte file (Fuzz/Regressions/wav): float, 514 channels, an empty data chunk.
        let header: [UInt8] = [0x52, 0x49, 0x46, 0x46, 0x2d, 0x07, 0, 0, 0x57, 0x41, 0x56, 0x45, 0x66, 0x6d, 0x74, 0x20,
                               0x12, 0, 0, 0, 0x03, 0, 0x02, 0x02, 0x44, 0xac, 0, 0, 0x20, 0x62, 0x05, 0xfa,
                               0x08, 0, 0x20, 0, 0, 0, 0x66, 0x61, 0x63, 0x74, 0x04, 0, 0, 0, 0xdc, 0,
                               0, 0, 0x64, 0x61, 0x74, 0x61, 0]
        let url = TemporaryFolder.path("channels.wav")
        try Data(header).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: AudioFileError.self) { try AudioFile.read(url) }
    }

    @Test("a WAV whose header says 0 samples a second, a FIFO and an empty file each get a sentence naming the file")
    func malformedSoundFiles() throws {
        let folder = try TemporaryFolder.make("sound-files")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A canonical 16-bit mono WAV header with a sample rate (and byte rate) of 0, then 100 samples.
        func le32(_ v: UInt32) -> [UInt8] { [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: v >> $0) } }
        let data = [UInt8](repeating: 0, count: 200)
        let header = Array("RIFF".utf8) + le32(36 + UInt32(data.count)) + Array("WAVEfmt ".utf8) + le32(16)
            + [1, 0, 1, 0] + le32(0) + le32(0) + [2, 0, 16, 0] + Array("data".utf8) + le32(UInt32(data.count))
        let zeroRate = folder.appendingPathComponent("zero-rate.wav")
        try Data(header + data).write(to: zeroRate)
        #expect(throws: AudioFileError.notAudio(path: zeroRate.path)) { try AudioFile.read(zeroRate) }
        let empty = folder.appendingPathComponent("empty.wav")
        try Data().write(to: empty)
        #expect(throws: AudioFileError.empty(path: empty.path)) { try AudioFile.read(empty) }
        // A named pipe is refused without being opened (opening it would wait for a writer).
        let pipe = folder.appendingPathComponent("pipe.wav")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        #expect(throws: AudioFileError.notAudio(path: pipe.path)) { try AudioFile.read(pipe) }
        for error in [AudioFileError.notAudio(path: zeroRate.path), .empty(path: empty.path)] {
            #expect(error.userMessage.contains(error == .empty(path: empty.path) ? "empty.wav" : "zero-rate.wav"))
            #expect(!error.userMessage.contains("SF_INFO"))
        }
    }
}
