import AssistCore
import Foundation
import TestSupport
@testable import LiveGuidance
import Media
import Perception
import PictureAnswers
import Reading
import Speech
import Synchronization
import Testing

/// "Read the text", "read the page", "what colour is this", "is the light on", "how many faces" in a
/// session: answered from the newest frame by the real readers (Tesseract, the colour namer, the light
/// meter, the face model), said through the queue, on the input clock.
@Suite("questions about the picture in a live session")
struct PictureQuestionTests {
    static func picture(_ path: String) throws -> RGBImage {
        try ImageFile(SharedFiles.data(path)).decode()
    }

    /// A label in view: two lines of the shared test page ("The quick brown dog jumped over the /
    /// lazy fox. The quick brown dog jumped"), alone on a white 640×480 frame.
    static func label() throws -> RGBImage {
        let page = try picture("text/tesseract_phototest.tif")
        var pixels = [UInt8](repeating: 255, count: page.width * page.height * 3)
        let rows = 190..<260
        for y in rows {
            let start = y * page.width * 3, end = start + page.width * 3
            pixels[start..<end] = page.pixels[start..<end]
        }
        return RGBImage(width: page.width, height: page.height, pixels: pixels)
    }

    /// Half size (a camera frame's 640 pixels across): every second pixel of every second row.
    static func halved(_ image: RGBImage) -> RGBImage {
        let width = image.width / 2, height = image.height / 2
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let p = image.pixel(x: x * 2, y: y * 2)
                pixels += [p.r, p.g, p.b]
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// The columns `x..<x+width` of `image`, full height.
    static func cropped(_ image: RGBImage, x: Int, width: Int) -> RGBImage {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * image.height * 3)
        for y in 0..<image.height {
            let start = (y * image.width + x) * 3
            pixels += image.pixels[start..<start + width * 3]
        }
        return RGBImage(width: width, height: image.height, pixels: pixels)
    }

    /// Lower case, whitespace collapsed, so line breaks of the page do not matter.
    static func normalised(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// An on-demand session over `seconds` of frames showing `picture`, with `commands` at their moments.
    static func run(showing picture: RGBImage, seconds: Double = 12, commands: [ScheduledRequest], people: [BoundingBox] = [],
                    answers: (any PictureQuestions)? = nil) async throws -> (harness: SessionHarness, transcript: [TranscriptEntry]) {
        let frames = Int(seconds * 10)
        let harness = SessionHarness(ScriptedAnalyzer(people: people)) { ScriptedFrameSource(frameCount: frames, picture: picture) }
        harness.configuration.scheduledRequests = commands
        harness.configuration.pictureQuestions = try answers ?? PictureAnswers(wordsPerMinute: 175)
        let (session, ending) = try await harness.run(mode: .onDemand)
        #expect(ending == .inputEnded)
        return (harness, session.transcript())
    }

    /// What was said as an answer at or after `seconds` (the activation and the end are not answers).
    static func answers(_ harness: SessionHarness, from seconds: Double = 0) -> [SpokenLine] {
        harness.said.filter { $0.utterance.priority == .answer && $0.timeSeconds >= seconds }
    }

    @Test("\"read the text\" at 2 s starts short-text mode: \"Reading text.\", then the label's text once steady, once")
    func readText() async throws {
        let (harness, transcript) = try await Self.run(showing: try Self.label(),
                                                       commands: [ScheduledRequest(atSeconds: 2, request: .ask(.readText))])
        let said = Self.answers(harness)
        try #require(said.count == 2, "\(said.map(\.utterance.text))")
        #expect(said[0].utterance.text == (try ReadingPhrases.bundled()).shortTextStarted)
        #expect(said[0].timeSeconds >= 2 && said[0].timeSeconds < 2.2)
        // Steady means the same text in at least two readings half a second apart.
        #expect(said[1].timeSeconds >= 2.5 && said[1].timeSeconds < 3.5)
        #expect(Self.normalised(said[1].utterance.text).hasPrefix("the quick brown dog jumped over the"))
        // Heard, not only queued.
        #expect(transcript.contains { $0.startSeconds >= 2.5 && Self.normalised($0.text).contains("the quick brown dog jumped over") })
    }

    @Test("\"read the page\" says the page in parts of at most 3 s, ending with \"End of page.\"")
    func readPage() async throws {
        let page = try Self.picture("text/tesseract_phototest.tif")
        let (_, transcript) = try await Self.run(showing: page, seconds: 40,
                                                 commands: [ScheduledRequest(atSeconds: 1, request: .ask(.readPage))])
        let heard = transcript.filter { $0.startSeconds >= 1 }
        #expect(heard.count > 2)
        #expect(heard.allSatisfy { $0.endSeconds - $0.startSeconds <= 3.05 })
        let all = Self.normalised(heard.map(\.text).joined(separator: " "))
        #expect(all.contains("12 point") && all.contains("quick brown dog") && all.contains("lazy fox"))
        #expect(heard.contains { $0.text.contains("End of page.") })
    }

    @Test("\"stop\" while a page is being read silences it at once; \"more\" carries on where it stopped")
    func stopDuringPage() async throws {
        let page = try Self.picture("text/tesseract_phototest.tif")
        let (_, transcript) = try await Self.run(showing: page, seconds: 20, commands: [
            ScheduledRequest(atSeconds: 1, request: .ask(.readPage)),
            ScheduledRequest(atSeconds: 2.5, request: .stopTalking),
            ScheduledRequest(atSeconds: 10, request: .more),
        ])
        let page1 = try #require(transcript.first { $0.startSeconds >= 1 && $0.startSeconds < 2.5 })
        #expect(page1.endSeconds <= 2.55, "the part being said ends at the stop")
        // Nothing of the page between the stop and "more".
        #expect(!transcript.contains { $0.startSeconds > 2.5 && $0.startSeconds < 10 })
        let resumed = transcript.filter { $0.startSeconds >= 10 }
        #expect(!resumed.isEmpty)
        #expect(!resumed.contains { $0.text == page1.text }, "more goes on with the next part")
    }

    @Test("\"what colour is this\" on a red frame says red")
    func colour() async throws {
        let red = RGBImage(width: 320, height: 240, filledWith: (220, 20, 30))
        let (harness, _) = try await Self.run(showing: red, seconds: 3, commands: [ScheduledRequest(atSeconds: 1, request: .ask(.colour))])
        let answer = try #require(Self.answers(harness).first)
        #expect(answer.utterance.text.lowercased().hasPrefix("red") || answer.utterance.text.lowercased().contains(" red"))
    }

    @Test("\"is the light on\" on a dark frame says it is dark; on a bright one, that the room is bright")
    func light() async throws {
        let dark = RGBImage(width: 320, height: 240, filledWith: (8, 8, 10))
        let (inTheDark, _) = try await Self.run(showing: dark, seconds: 3, commands: [ScheduledRequest(atSeconds: 1, request: .ask(.light))])
        #expect(Self.answers(inTheDark).map(\.utterance.text) == ["It is dark."])
        let bright = RGBImage(width: 320, height: 240, filledWith: (230, 225, 220))
        let (inTheLight, _) = try await Self.run(showing: bright, seconds: 3, commands: [ScheduledRequest(atSeconds: 1, request: .ask(.light))])
        #expect(Self.answers(inTheLight).map(\.utterance.text) == ["The room is bright."])
    }

    @Test("\"how many faces\" with the right-hand half of zidane.jpg in view says one face")
    func countFaces() async throws {
        // The right-hand man, whose frontal face YuNet finds (see FaceDetectorTests); the
        // left half, with Zidane's turned face and the blurred crowd, is out of view. His box as
        // the shared YOLO11n IR finds it in zidane.jpg (744–1148, 40–710), cut and halved.
        let zidane = try Self.picture("images/zidane.jpg")
        let rightHalf = Self.halved(Self.cropped(zidane, x: zidane.width / 2, width: zidane.width / 2))
        let (harness, _) = try await Self.run(showing: rightHalf, seconds: 3,
                                              commands: [ScheduledRequest(atSeconds: 1, request: .ask(.countFaces))],
                                              people: [BoundingBox(x0: 52, y0: 20, x1: 254, y1: 355)])
        // How many, then where (the test analyzer knows no distance for its people, so the face's own size gives it).
        let said = Self.answers(harness).map(\.utterance.text)
        try #require(said.count == 1, "\(said)")
        #expect(said[0].hasPrefix("One face. Face, "), "\(said)")
    }

    /// In continuous mode the frame asked about is also a frame the cycle analyses: the people found
    /// for the question are the cycle's too, so the detector runs on that frame once, not twice (on a
    /// wearable a second run would hold up the next warning by a whole analysis).
    @Test("\"how many faces\" in continuous mode: the frame asked about is analysed once, for the answer and for the cycle")
    func countFacesInContinuousModeAnalysesOnce() async throws {
        let zidane = try Self.picture("images/zidane.jpg")
        let rightHalf = Self.halved(Self.cropped(zidane, x: zidane.width / 2, width: zidane.width / 2))
        let analyzer = ScriptedAnalyzer(people: [BoundingBox(x0: 52, y0: 20, x1: 254, y1: 355)])
        let harness = SessionHarness(analyzer) { ScriptedFrameSource(frameCount: 30, picture: rightHalf) }
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 1, request: .ask(.countFaces))]
        harness.configuration.pictureQuestions = try PictureAnswers(wordsPerMinute: 175)
        let (_, ending) = try await harness.run(mode: .continuous)
        #expect(ending == .inputEnded)
        let said = Self.answers(harness).map(\.utterance.text)
        try #require(said.count == 1, "\(said)")
        #expect(said[0].hasPrefix("One face. Face, "), "\(said)")
        let times = analyzer.analysedFrameTimes
        #expect(Set(times).count == times.count, "a frame analysed twice: \(times)")
        // The frame asked about was still a cycle of its own, with the people found in it.
        let asked = try #require(times.first { $0 >= 0.95 })
        let cycle = try #require(harness.reports.first { $0.event == nil && abs($0.time - asked) < 1e-9 }, "\(times)")
        #expect(cycle.objects.map(\.label) == ["person"])
    }

    /// The whole of zidane.jpg with the two men where the detector finds them: Zidane's own turned,
    /// tilted face is found on his head, so the answer agrees with `assist see --faces`. Where the detector finds nobody, the
    /// face-like patterns are no faces. Fails if the session does not hand the frame's people over.
    @Test("\"how many faces\" counts on the heads of the people found in that frame and says where each is: two on zidane.jpg, none where nobody was found")
    func countFacesOnPeople() async throws {
        let zidane = try Self.picture("images/zidane.jpg")
        let men = [BoundingBox(x0: 744, y0: 40, x1: 1148, y1: 710), BoundingBox(x0: 124, y0: 201, x1: 1132, y1: 713)]
        let asked = [ScheduledRequest(atSeconds: 1, request: .ask(.countFaces))]
        let (withMen, _) = try await Self.run(showing: zidane, seconds: 3, commands: asked, people: men)
        // The count, then each face where it is (as `assist see --faces zidane.jpg` says them):
        // the right-hand man's slightly right, Zidane's ahead — every counted face is placed.
        let said = Self.answers(withMen).map(\.utterance.text)
        try #require(said.count == 1, "\(said)")
        #expect(said[0].hasPrefix("2 faces. "), "\(said)")
        #expect(said[0].contains(", slightly right.") && said[0].contains(", ahead."), "\(said)")
        #expect(said[0].components(separatedBy: "Face, ").count - 1 == 2, "\(said)")
        let (withNobody, _) = try await Self.run(showing: zidane, seconds: 3, commands: asked, people: [])
        #expect(Self.answers(withNobody).map(\.utterance.text) == [(try PictureAnswers.Phrases.bundled()).noFaces])
    }

    /// A question about the things in view is answered from the findings in the frame it was
    /// asked about (the session runs the detector on that frame, as for "how many faces"): two
    /// people found, "2 people."; a question nothing measures is declined, the session going on.
    @Test("\"how many people\" and \"what's his name\" in a live session: counted from that frame's findings; declined")
    func sceneQuestions() async throws {
        let zidane = try Self.picture("images/zidane.jpg")
        let men = [BoundingBox(x0: 744, y0: 40, x1: 1148, y1: 710), BoundingBox(x0: 124, y0: 201, x1: 1132, y1: 713)]
        let people = SceneTarget(categories: ["person"], singular: "person", plural: "people")
        let (harness, _) = try await Self.run(showing: zidane, seconds: 4, commands: [
            ScheduledRequest(atSeconds: 1, request: .ask(.scene(.count(people)))),
            ScheduledRequest(atSeconds: 2, request: .ask(.scene(.cannotTell))),
            ScheduledRequest(atSeconds: 3, request: .ask(.scene(.isThere(SceneTarget(categories: ["dog"], singular: "dog", plural: "dogs"))))),
        ], people: men)
        let said = Self.answers(harness).map(\.utterance.text)
        try #require(said.count == 3, "\(said)")
        #expect(said[0].hasPrefix("2 people. "), "\(said)")
        #expect(said[1] == "I can't tell that from the picture.")
        #expect(said[2] == "No dog in view.")
    }

    @Test("a missing Tesseract language or face model is one clear sentence, and the session goes on")
    func missingData() async throws {
        let broken = try PictureAnswers(makers: PictureAnswers.Makers(
            textReader: { () throws(TextRecognitionError) in try TextReader(language: "xxx") },
            faceDetector: { () throws(FaceModelError) in try FaceDetector(model: URL(fileURLWithPath: "/nonexistent/yunet.onnx")) }),
            wordsPerMinute: 175)
        let grey = RGBImage(width: 64, height: 48, filledWith: (128, 128, 128))
        let (harness, _) = try await Self.run(showing: grey, seconds: 4, commands: [
            ScheduledRequest(atSeconds: 1, request: .ask(.readText)),
            ScheduledRequest(atSeconds: 2, request: .ask(.countFaces)),
            ScheduledRequest(atSeconds: 3, request: .ask(.light)),
        ], answers: broken)
        let said = Self.answers(harness).map(\.utterance.text)
        // "Reading text.", then the first reading fails: said once, and short-text mode ends.
        try #require(said.count == 4, "\(said)")
        #expect(said[1].contains("tesseract-ocr-xxx"))
        #expect(said[2].hasPrefix("Faces cannot be counted. The face model") && said[2].contains("/nonexistent/yunet.onnx"), "\(said)")
        // The light is still answered after the two failures: the session went on.
        #expect(["The room is bright.", "The light is dim.", "It is dark."].contains(said.last ?? ""))
    }

    /// Answers every question with "Secret text.", and the first time, while it is still working,
    /// the user says "stop" (sent through the session's controls, as the console or voice would).
    final class StoppedWhileWorking: PictureQuestions {
        let controls = Mutex<SessionControls?>(nil)
        let calls = Mutex(0)
        func answer(_ question: PictureQuestion, about frame: Frame, context: FrameContext) throws(PictureQuestionError) -> [String] {
            let first = calls.withLock { count -> Bool in
                count += 1
                return count == 1
            }
            if first { controls.withLock { $0 }?.send(.stopTalking) }
            return ["Secret text."]
        }
        func startShortText() -> String { "Reading text." }
        func shortText(in frame: Frame) throws(PictureQuestionError) -> String? { nil }
        func stopShortText() -> String { "Stopped reading." }
    }

    @Test("\"stop\" said while the answer is still being worked out: that answer is never said; the next question is answered")
    func stopWhileWorking() async throws {
        let answers = StoppedWhileWorking()
        let grey = RGBImage(width: 64, height: 48, filledWith: (128, 128, 128))
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 40, picture: grey) }
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 1, request: .ask(.colour)),
                                                   ScheduledRequest(atSeconds: 2, request: .ask(.colour))]
        harness.configuration.pictureQuestions = answers
        let session = try harness.makeSession(mode: .onDemand)
        answers.controls.withLock { $0 = session.controls }
        _ = try await session.run()
        #expect(answers.calls.withLock { $0 } == 2)
        let said = Self.answers(harness)
        #expect(said.map(\.utterance.text) == ["Secret text."])
        #expect(said.first.map { $0.timeSeconds >= 2 } == true, "only the second question's answer is said")
    }

    @Test("a session built without answers says so in one sentence")
    func noAnswers() async throws {
        let grey = RGBImage(width: 64, height: 48, filledWith: (128, 128, 128))
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 30, picture: grey) }
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 1, request: .ask(.colour))]
        _ = try await harness.run(mode: .onDemand)
        #expect(Self.answers(harness).map(\.utterance.text) == [try SessionSentences.bundled().questionUnavailable])
    }
}
