import ArgumentParser
import AssistCore
import Benchmarks
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
        let times = try QuestionBenchmark(detector: try detector.makeDetector(core: try InferenceCore()))
            .run(pictures: pictures, runs: runs, warmup: warmup)
        print(QuestionBenchmark.table(times, pictureCount: pictures.count, runs: runs))
    }
}
