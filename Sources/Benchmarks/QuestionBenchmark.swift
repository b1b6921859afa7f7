import AssistCore
import Foundation
import Guidance
import LiveGuidance
import Media
import Perception
import PictureAnswers
import SessionControl

/// How long a question about a live frame takes to answer (the detector's analysis of the frame,
/// then the answer), and what the face detector costs per camera frame: `assist bench questions`.
public struct QuestionBenchmark {
    let analyzer: SceneAnalyzer
    let faces: FaceDetector
    let answers: PictureAnswers

    public init(detector: ObjectDetector) throws {
        analyzer = try SceneAnalyzer(detector: detector, locator: try ObjectLocator(), describer: try SceneDescriber())
        faces = try FaceDetector.located()
        answers = try PictureAnswers(wordsPerMinute: 175)
    }

    /// The questions timed, in the words a user says them.
    static let questions: [(String, PictureQuestion)] = {
        func target(_ category: String, _ plural: String) -> SceneTarget { SceneTarget(categories: [category], singular: category, plural: plural) }
        return [
            ("how many people", .scene(.count(target("person", "people")))),
            ("is there a bus", .scene(.isThere(target("bus", "buses")))),
            ("how far is the person", .scene(.howFar(target("person", "people")))),
            ("what colour is the bus", .scene(.colour(target("bus", "buses")))),
            ("what is on my left", .scene(.onSide(left: true))),
            ("what is closest", .scene(.closest)),
            ("describe the scene", .scene(.describe)),
            ("how many faces", .countFaces),
            ("what's his name", .scene(.cannotTell)),
            ("what does the bus say", .scene(.text(target("bus", "buses")))),
        ]
    }()
    public static let facesAlone = "faces (YuNet) alone"

    /// Milliseconds of each timed run, per question in the order asked, then the face line.
    public func run(pictures: [URL], runs: Int, warmup: Int) throws -> [(String, [Double])] {
        var times: [String: [Double]] = [:]
        let clock = ContinuousClock()
        for url in pictures {
            let frame = Frame(image: Self.cameraFrame(try ImageFile(url).decode()), sourceName: url.lastPathComponent)
            for run in 0..<(warmup + runs) {
                for (name, question) in Self.questions {
                    let start = clock.now
                    let report = try analyzer.analyze(frame)
                    _ = try answers.answer(question, about: frame, context: PictureDescription.questionContext(report: report, frame: frame, analyzer: analyzer))
                    if run >= warmup { times[name, default: []].append((clock.now - start).milliseconds) }
                }
                let people = try analyzer.analyze(frame).objects.filter { $0.label == FaceDetector.personLabel }.map(\.detection.box)
                let start = clock.now
                _ = try faces.detect(in: frame.image, people: people)
                if run >= warmup { times[Self.facesAlone, default: []].append((clock.now - start).milliseconds) }
            }
        }
        return (Self.questions.map(\.0) + [Self.facesAlone]).compactMap { name in times[name].map { (name, $0) } }
    }

    /// The report `assist bench questions` prints: each question's median and 95th percentile
    /// (nearest rank) over its timed runs, in the order asked.
    public static func table(_ times: [(String, [Double])], pictureCount: Int, runs: Int) -> String {
        func name(_ text: String) -> String { text.padding(toLength: 36, withPad: " ", startingAt: 0) }
        var lines = ["\(pictureCount) pictures as 640×480 frames, \(runs) runs each", name("question") + "  median ms   p95 ms"]
        for (question, milliseconds) in times {
            let sorted = milliseconds.sorted()
            guard let p95 = NearestRank.percentile95(sorted) else { continue }
            lines.append(name(question) + String(format: " %10.1f %8.1f", sorted[sorted.count / 2], p95))
        }
        return lines.joined(separator: "\n")
    }

    /// The picture as a 640×480 camera frame (nearest pixel; the aspect ratio is not kept, as a
    /// camera's is not the photo's).
    static func cameraFrame(_ image: RGBImage) -> RGBImage {
        let width = 640, height = 480
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            let sy = y * image.height / height
            for x in 0..<width {
                let sx = x * image.width / width, from = (sy * image.width + sx) * 3, to = (y * width + x) * 3
                pixels[to] = image.pixels[from]; pixels[to + 1] = image.pixels[from + 1]; pixels[to + 2] = image.pixels[from + 2]
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}
