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
}
