import AssistCore
import Foundation
@testable import LiveGuidance
import Media
import PictureAnswers
import Reading
import Speech
import TestSupport
import Testing

/// Short-text mode in a session ("read text", as Seeing AI's): every frame is read quickly, text is
/// said once it is steady in view, the same text is not said again, and "stop" ends the mode. Driven
/// on the input clock (each reading costs a fixed 0.3 s of video time), so no test waits on the machine.
@Suite("short-text mode in a live session")
struct ShortTextModeTests {
    static func text(_ name: String) -> String {
        SharedFiles.text(name).path
    }

    /// A 640×480 video at 5 frames a second of the shared pictures, each for its seconds, in order.
    static func video(_ pictures: [(path: String, seconds: Int)], in folder: URL) throws -> URL {
        let video = folder.appendingPathComponent("text.mp4")
        var arguments: [String] = []
        for picture in pictures {
            arguments += ["-loop", "1", "-framerate", "5", "-t", String(picture.seconds), "-i", picture.path]
        }
        let scaled = pictures.indices.map { "[\($0)]scale=640:480,setsar=1,format=yuv420p[v\($0)]" }.joined(separator: ";")
        let inputs = pictures.indices.map { "[v\($0)]" }.joined()
        arguments += ["-filter_complex", "\(scaled);\(inputs)concat=n=\(pictures.count)[v]",
                      "-map", "[v]", "-r", "5", "-c:v", "mpeg4", "-q:v", "2", "-f", "mp4", video.path]
        try Program.ffmpeg(arguments)
        return video
    }

    static func session(over video: URL, commands: [ScheduledRequest]) async throws -> SessionHarness {
        let harness = SessionHarness(frameCostSeconds: 0.3) { ScriptedFrameSource(frameCount: 0) }
        harness.configuration.input = FrameInput(name: "text.mp4", kind: .recording) { width in
            try VideoFrameSource(.file(video), maximumWidthPixels: width)
        }
        harness.configuration.scheduledRequests = commands
        harness.configuration.pictureQuestions = try PictureAnswers(wordsPerMinute: 175)
        let (_, ending) = try await harness.run(mode: .onDemand)
        #expect(ending == .inputEnded)
        return harness
    }

    @Test("a page that comes, goes and comes back in a video is said once, after it is steady; nothing is read where there is no text")
    func pageSaidOnce() async throws {
        let folder = try TemporaryFolder.make("short-text")
        defer { try? FileManager.default.removeItem(at: folder) }
        // 1 s without text (a pillow), 2 s of the page, 1 s without, 2 s of the page again.
        let pillow = Self.text("vizwizgrounding_pillow.jpg"), page = Self.text("tesseract_phototest.tif")
        let video = try Self.video([(pillow, 1), (page, 2), (pillow, 1), (page, 2)], in: folder)
        let harness = try await Self.session(over: video, commands: [ScheduledRequest(atSeconds: 0.2, request: .ask(.readText))])
        let said = PictureQuestionTests.answers(harness)
        try #require(said.count == 2, "\(said.map(\.utterance.text))")
        #expect(said[0].utterance.text == (try ReadingPhrases.bundled()).shortTextStarted)
        #expect(PictureQuestionTests.normalised(said[1].utterance.text).contains("quick brown dog"))
        // The page is in view from 1 s: said once two readings half a second apart agree.
        #expect(said[1].timeSeconds >= 1.5 && said[1].timeSeconds < 2.8, "said at \(said[1].timeSeconds) s")
    }

    @Test("\"stop\" ends short-text mode at once: \"Stopped reading.\", and text that comes into view later is not read")
    func stopEndsMode() async throws {
        let folder = try TemporaryFolder.make("short-text")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pillow = Self.text("vizwizgrounding_pillow.jpg"), page = Self.text("tesseract_phototest.tif")
        let video = try Self.video([(pillow, 2), (page, 2)], in: folder)
        let harness = try await Self.session(over: video, commands: [
            ScheduledRequest(atSeconds: 0.2, request: .ask(.readText)),
            ScheduledRequest(atSeconds: 1.0, request: .stopTalking),
        ])
        let phrases = try ReadingPhrases.bundled()
        #expect(PictureQuestionTests.answers(harness).map(\.utterance.text) == [phrases.shortTextStarted, phrases.shortTextStopped])
    }
}
