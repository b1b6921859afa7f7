import ArgumentParser
import AssistCore
import Foundation
import Guidance
import LiveGuidance
import Media
import Perception
import PictureAnswers
import SessionControl

/// `assist bench questions`: how long a question about a live frame takes to answer, and what the
/// face detector costs per camera frame.
struct BenchQuestions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "questions",
        abstract: "Times questions about a 640×480 frame (the detector's analysis of that frame, then the answer) and YuNet's face detection per frame.",
        discussion: """
        Each picture is scaled to a 640×480 camera frame. Every question is answered --runs times, after \
        --warmup untimed runs, as a live session answers it: the frame analysed by the object detector, \
        then the answer worked out from the findings (and, for "what does the bus say", Tesseract on the \
        bus's box). The face line times FaceDetector.detect(in:people:) alone, on the same frames. \
        Medians and 95th percentiles in milliseconds.

        Example:
          scripts/assist bench questions ../shared/data/images/bus.jpg ../shared/data/images/zidane.jpg
        """ + DocsPage.benchmarks.seeAlso)

    @Argument(help: ArgumentHelp("Pictures to use as frames (default: bus.jpg and zidane.jpg from ../shared/data/images).", valueName: "image"))
    var images: [String] = []

    @OptionGroup(title: "Detector") var detector: DetectorOptions

    @Option(help: "Timed runs per question and picture.")
    var runs: Int = 10

    @Option(help: "Untimed runs first, so caches and thread pools are warm.")
    var warmup: Int = 2

    func validate() throws {
        guard runs >= 1, warmup >= 0 else { throw ValidationError("--runs must be at least 1 and --warmup at least 0.") }
    }

    func run() throws {
        let pictures: [URL]
        if images.isEmpty {
            guard let data = ModelLocator().sharedDataDirectory() else { throw CommandFailure("../shared/data/images was not found; name pictures.") }
            pictures = ["bus.jpg", "zidane.jpg"].map { data.appendingPathComponent("images/\($0)") }
        } else {
            pictures = images.map { URL(fileURLWithPath: $0) }
        }
        let core = try InferenceCore()
        let analyzer = try SceneAnalyzer(detector: try detector.makeDetector(core: core),
                                         locator: try ObjectLocator(), describer: try SceneDescriber())
        let faces = try FaceDetector.located()
        let answers = try PictureAnswers(wordsPerMinute: 175)
        func target(_ category: String, _ plural: String) -> SceneTarget { SceneTarget(categories: [category], singular: category, plural: plural) }
        let questions: [(String, PictureQuestion)] = [
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
        var times: [String: [Double]] = [:]
        let clock = ContinuousClock()
        for url in pictures {
            let frame = Frame(image: Self.cameraFrame(try ImageFile(url).decode()), sourceName: url.lastPathComponent)
            for run in 0..<(warmup + runs) {
                for (name, question) in questions {
                    let start = clock.now
                    let report = try analyzer.analyze(frame)
                    _ = try answers.answer(question, about: frame, context: PictureDescription.questionContext(report: report, frame: frame, analyzer: analyzer))
                    if run >= warmup { times[name, default: []].append((clock.now - start).milliseconds) }
                }
                let people = try analyzer.analyze(frame).objects.filter { $0.label == FaceDetector.personLabel }.map(\.detection.box)
                let start = clock.now
                _ = try faces.detect(in: frame.image, people: people)
                if run >= warmup { times["faces (YuNet) alone", default: []].append((clock.now - start).milliseconds) }
            }
        }
        print("\(pictures.count) pictures as 640×480 frames, \(runs) runs each")
        print("question".padding(toLength: 36, withPad: " ", startingAt: 0) + "  median ms   p95 ms")
        for name in questions.map(\.0) + ["faces (YuNet) alone"] {
            let sorted = (times[name] ?? []).sorted()
            guard !sorted.isEmpty else { continue }
            let p95 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.95).rounded(.up)) - 1)]
            print(name.padding(toLength: 36, withPad: " ", startingAt: 0) + String(format: " %10.1f %8.1f", sorted[sorted.count / 2], p95))
        }
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
