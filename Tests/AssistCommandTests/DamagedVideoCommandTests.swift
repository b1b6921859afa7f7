import Foundation
import TestSupport
import Testing

/// Issue 16's damaged videos through `assist see`, rendered offline (its own clock, so the
/// machine's load does not matter): what the transcript says, and the exit status.
@Suite("assist see on damaged and cut-short videos")
struct DamagedVideoCommandTests {
    static let damagedSentence = "Damaged video: some pictures were skipped."

    private func render(_ video: URL, in folder: URL) throws -> (output: AssistBinary.Output, transcript: String) {
        let transcript = folder.appendingPathComponent("\(video.lastPathComponent).srt")
        let output = try AssistBinary.run(["see", video.path, "--speak-to", folder.appendingPathComponent("speech.wav").path,
                                           "--frame-cost", "0.1", "--transcript", transcript.path])
        return (output, (try? String(contentsOf: transcript, encoding: .utf8)) ?? "")
    }

    private func scratch() throws -> URL { try TemporaryFolder.make("damaged-video") }

    @Test("an intact video is described and not called damaged")
    func intact() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (output, transcript) = try render(try AssistBinary.busVideo(seconds: 3, in: folder), in: folder)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(transcript.contains("Bus") && !transcript.contains("damaged"), "\(transcript)")
    }

    @Test("300 flipped bytes or 5,000 overwritten ones: the damage is said, and no damaged picture is described",
          arguments: ["flip", "overwrite"])
    func damaged(kind: String) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try AssistBinary.busVideo(seconds: 3, in: folder)
        var bytes = [UInt8](try Data(contentsOf: video))
        var state: UInt64 = 42
        func next() -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(state >> 33) }
        if kind == "flip" {
            for _ in 0..<300 { bytes[bytes.count / 10 + next() % (bytes.count * 8 / 10)] ^= 0xFF }
        } else {
            let start = bytes.count / 2 - 2500
            for index in start..<start + 5000 { bytes[index] = UInt8(truncatingIfNeeded: next()) }
        }
        let damaged = folder.appendingPathComponent("\(kind).mp4")
        try Data(bytes).write(to: damaged)
        let (output, transcript) = try render(damaged, in: folder)
        // Heard in two parts (with its tone it is longer than 3 s): look for the first.
        #expect(transcript.contains(String(Self.damagedSentence.prefix { $0 != ":" })), "\(transcript)\n\(output.standardError)")
        #expect(output.status != 0)
        #expect(!transcript.contains("Refrigerator"))
    }

    @Test("a video cut short says so and does not end with exit status 0")
    func cutShort() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("faststart.mp4")
        try Program.ffmpeg(["-loop", "1", "-i", AssistBinary.image("bus.jpg"), "-t", "3", "-r", "10",
                            "-vf", "scale=640:480", "-pix_fmt", "yuv420p", "-movflags", "+faststart", video.path])
        let bytes = try Data(contentsOf: video)
        let cut = folder.appendingPathComponent("cut.mp4")
        try bytes.prefix(bytes.count / 2).write(to: cut)
        let (output, transcript) = try render(cut, in: folder)
        #expect(output.status == 1, "\(output.standardError)")
        #expect(transcript.contains("ends early") && !transcript.contains("End of video."), "\(transcript)")
    }
}
