import AssistCore
import Foundation
import TestSupport
import Media
import Testing
@testable import Reading

private func sign(_ words: String..., y: Float = 10) -> TextReading {
    TextReading(blocks: [ReadBlock(lines: [ReadLine(words: words.enumerated().map { word($1, x: Float($0) * 100, y: y) })])])
}

@Suite("Short-text mode and page reading")
struct ShortTextPolicyTests {
    @Test("text is said once it has been steady for half a second, and not again while it stays")
    func steadyThenOnce() {
        var policy = ShortTextPolicy()
        #expect(policy.observe(sign("PLATFORM", "2"), atSeconds: 0.0) == nil)
        #expect(policy.observe(sign("PLATFORM", "2"), atSeconds: 0.2) == nil)
        #expect(policy.observe(sign("PLATFORM", "2"), atSeconds: 0.5) == "PLATFORM 2")
        for step in 1...20 {
            #expect(policy.observe(sign("PLATFORM", "2"), atSeconds: 0.5 + Double(step) * 0.2) == nil)
        }
    }

    @Test("a glimpse is not said; a misread word in one frame does not make new text")
    func glimpseAndMisread() {
        var policy = ShortTextPolicy()
        #expect(policy.observe(sign("NO", "ENTRY"), atSeconds: 0) == nil)
        #expect(policy.observe(TextReading(blocks: []), atSeconds: 0.2) == nil)
        #expect(policy.observe(sign("EXIT", "ONLY", "HERE"), atSeconds: 0.4) == nil)
        #expect(policy.observe(sign("EXIT", "ONLY", "HERE"), atSeconds: 0.9) == "EXIT ONLY HERE")
        #expect(policy.observe(sign("EXIT", "0NLY", "HERE"), atSeconds: 1.1) == nil)
    }

    @Test("text that comes back soon is not repeated; after it has been away long enough it is said again")
    func comesBack() {
        var policy = ShortTextPolicy(settings: .init(forgetAfterSeconds: 10))
        _ = policy.observe(sign("EXIT"), atSeconds: 0)
        #expect(policy.observe(sign("EXIT"), atSeconds: 0.6) == "EXIT")
        #expect(policy.observe(TextReading(blocks: []), atSeconds: 2) == nil)
        _ = policy.observe(sign("EXIT"), atSeconds: 5)
        #expect(policy.observe(sign("EXIT"), atSeconds: 5.6) == nil)
        _ = policy.observe(sign("EXIT"), atSeconds: 30)
        #expect(policy.observe(sign("EXIT"), atSeconds: 30.6) == "EXIT")
    }

    @Test("stop ends the mode at once, even for text about to become steady")
    func stopEnds() {
        var policy = ShortTextPolicy()
        _ = policy.observe(sign("EXIT"), atSeconds: 0)
        policy.stop()
        #expect(policy.observe(sign("EXIT"), atSeconds: 0.6) == nil)
        #expect(policy.isStopped)
    }

    @Test("a page is read in parts of at most 3 s that can be paused and continued")
    func pageInParts() {
        let lines = (0..<6).map { row in
            ReadLine(words: ["one", "two", "three", "four", "five"].enumerated().map { word($1, x: Float($0) * 80, y: Float(row) * 30) })
        }
        var page = PageReading(TextReading(blocks: [ReadBlock(lines: lines)]), wordsPerMinute: 175)
        #expect(page.parts.count == 6)
        #expect(page.parts.allSatisfy { $0.split(separator: " ").count <= 8 })
        #expect(page.next() == "one two three four five")
        page.pause()
        #expect(page.next() == nil)
        page.resume()
        var said = 1
        while page.next() != nil { said += 1 }
        #expect(said == 6 && page.isFinished)
    }

    @Test("on a video (no text, a page, no text, the page again) the page is said once, after it is steady")
    func videoDeduplication() throws {
        let folder = try TemporaryFolder.make("reading-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("page-comes-and-goes.mp4")
        let page = SharedFiles.text("tesseract_phototest.tif").path
        let pillow = SharedFiles.text("vizwizgrounding_pillow.jpg").path
        // 5 frames a second: 1 s without text, 2 s of the page, 1 s without, 2 s of the page.
        try Program.ffmpeg([
            "-loop", "1", "-framerate", "5", "-t", "1", "-i", pillow,
            "-loop", "1", "-framerate", "5", "-t", "2", "-i", page,
            "-loop", "1", "-framerate", "5", "-t", "1", "-i", pillow,
            "-loop", "1", "-framerate", "5", "-t", "2", "-i", page,
            "-filter_complex",
            "[0]scale=640:480,setsar=1,format=yuv420p[a];[1]scale=640:480,setsar=1,format=yuv420p[b];[2]scale=640:480,setsar=1,format=yuv420p[c];[3]scale=640:480,setsar=1,format=yuv420p[d];[a][b][c][d]concat=n=4[v]",
            "-map", "[v]", "-r", "5", "-c:v", "mpeg4", "-q:v", "2", "-f", "mp4", video.path,
        ])
        let source = try VideoFrameSource(.file(video))
        let reader = try TextReader()
        var policy = ShortTextPolicy()
        var said: [(seconds: Double, text: String)] = []
        var frames = 0
        while let frame = try source.nextFrame() {
            frames += 1
            if let text = policy.observe(try reader.read(frame.image, effort: .quick), atSeconds: frame.timestampSeconds) {
                said.append((frame.timestampSeconds, text))
            }
        }
        #expect(frames >= 28)
        try #require(said.count == 1)
        #expect(said[0].text.lowercased().contains("quick brown dog"))
        #expect(said[0].seconds >= 1.4 && said[0].seconds < 2.5)
    }
}
