import AssistCore
import Foundation
import TestSupport
import Media
import Testing

/// Issue 16: an H.264 MP4 of bus.jpg with 300 flipped bytes was described as "Refrigerator, 2
/// meters, ahead."; 5,000 random bytes in the middle gave "No object detected."; a file cut
/// short ended with "End of video.". Damaged pictures must never be handed on as scenes, and a
/// file that ends early must say so; an intact file must not be called damaged.
@Suite("Damaged and cut-short videos")
struct DamagedVideoTests {
    /// 3 s of bus.jpg at 10 fps, 640×480 H.264 (one key frame), as `AssistBinary.busVideo` makes
    /// it; `faststart` puts the index first, so a cut file still opens.
    static func busVideo(in folder: URL, faststart: Bool = false) throws -> URL {
        let video = folder.appendingPathComponent(faststart ? "bus-faststart.mp4" : "bus.mp4")
        try Program.ffmpeg(["-loop", "1", "-i", SharedFiles.bus.path, "-t", "3", "-r", "10", "-vf", "scale=640:480",
                              "-pix_fmt", "yuv420p"] + (faststart ? ["-movflags", "+faststart"] : []) + [video.path])
        return video
    }

    struct Reading {
        var frames = 0
        var damaged = 0
        var ending: VideoInputError?
    }

    /// Reads to the end, going past damaged pictures as the live session does.
    static func read(_ url: URL) throws -> Reading {
        let source = try VideoFrameSource(.file(url))
        var reading = Reading()
        while true {
            do {
                guard try source.nextVideoFrame() != nil else { return reading }
                reading.frames += 1
            } catch {
                if case .damagedPictures = error {
                    reading.damaged += 1
                } else {
                    reading.ending = error
                    return reading
                }
            }
        }
    }

    /// Deterministic damage (SplitMix64), so a failure can be reproduced.
    static func damaged(_ data: Data, seed: UInt64, _ change: (inout [UInt8], inout SplitMix64) -> Void) -> Data {
        var bytes = [UInt8](data)
        var random = SplitMix64(seed: seed)
        change(&bytes, &random)
        return Data(bytes)
    }

    @Test("an intact video gives all 30 pictures and is not called damaged")
    func intact() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let reading = try Self.read(try Self.busVideo(in: folder))
        #expect(reading.frames == 30 && reading.damaged == 0 && reading.ending == nil)
    }

    @Test("300 flipped bytes: the damaged pictures are refused, never handed on", arguments: [1, 2, 3] as [UInt64])
    func flippedBytes(seed: UInt64) throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Data(contentsOf: try Self.busVideo(in: folder))
        let file = folder.appendingPathComponent("flipped.mp4")
        // In the picture data, past the header: the first tenth to the last tenth of the file.
        try Self.damaged(original, seed: seed) { bytes, random in
            for _ in 0..<300 { bytes[bytes.count / 10 + Int(random.next() % UInt64(bytes.count * 8 / 10))] ^= 0xFF }
        }.write(to: file)
        let reading = try Self.read(file)
        #expect(reading.damaged > 0, "\(reading)")
        #expect(reading.frames + reading.damaged <= 30)
    }

    @Test("5,000 random bytes in the middle: damaged pictures are refused")
    func overwrittenMiddle() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Data(contentsOf: try Self.busVideo(in: folder))
        let file = folder.appendingPathComponent("overwritten.mp4")
        try Self.damaged(original, seed: 7) { bytes, random in
            let start = bytes.count / 2 - 2500
            for index in start..<start + 5000 { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
        }.write(to: file)
        let reading = try Self.read(file)
        #expect(reading.damaged > 0, "\(reading)")
    }

    @Test("a video cut short says it ended early; with its index at the end it is not a video at all",
          arguments: [0.1, 0.5, 0.9])
    func cutShort(fraction: Double) throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let indexFirst = try Data(contentsOf: try Self.busVideo(in: folder, faststart: true))
        let cut = folder.appendingPathComponent("cut.mp4")
        try indexFirst.prefix(Int(Double(indexFirst.count) * fraction)).write(to: cut)
        let reading = try Self.read(cut)
        guard case .endedEarly(_, let played, let declared)? = reading.ending else {
            Issue.record("not said to end early: \(reading)"); return
        }
        #expect(played < declared && declared == 3)
        #expect(reading.ending?.userMessage.contains("ends early") == true)

        let indexLast = try Data(contentsOf: try Self.busVideo(in: folder))
        try indexLast.prefix(Int(Double(indexLast.count) * fraction)).write(to: cut)
        #expect(throws: VideoInputError.notAVideo(name: cut.path)) { try VideoFrameSource(.file(cut)) }
    }

    @Test("a stream is named by its whole address, not its last part")
    func streamName() {
        #expect(VideoInputError.failed(name: "rtsp://192.168.1.20:8554/video", reason: "x").userMessage
                == "The video from rtsp://192.168.1.20:8554/video could not be read (FFmpeg: x).")
    }
}
