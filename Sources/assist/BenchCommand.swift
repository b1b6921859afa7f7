import ArgumentParser
import AssistCore
import Benchmarks
import Foundation
import Guidance
import Perception
import SessionControl

struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measures the speed of the vision pipeline stage by stage (build with -c release).",
        discussion: DocsPage.benchmarks.reference,
        shouldDisplay: false,
        subcommands: [BenchVision.self, BenchHearingFile.self, BenchVoice.self, BenchCommands.self, BenchQuestions.self, BenchWake.self])
}

struct BenchVision: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vision",
        abstract: "Times decode, quality check, pre-process, inference, post-process, distance and sentences on pictures, beside raw OpenVINO inference.",
        discussion: """
        Each picture is described --runs times after --warmup runs; the table gives the median and 95th \
        percentile per stage. With rectangular input (the default) the same picture is also run, interleaved \
        run by run, through the model's square input, so "inference, square" and "raw inference, square" \
        are measured in the same run and under the same load. "raw inference" runs the compiled model alone on the same input, the floor \
        the pipeline is measured against; "overhead" is everything except decoding and inference, as a \
        share of raw inference.

        Example:
          scripts/assist bench vision ../shared/data/images/bus.jpg
        """ + DocsPage.benchmarks.seeAlso)

    @Argument(help: ArgumentHelp("Pictures to time (default: bus.jpg from ../shared/data/images).", valueName: "image"))
    var images: [String] = []

    @OptionGroup(title: "Detector") var detector: DetectorOptions

    @Option(help: "Timed runs per picture (the median needs at least 20).")
    var runs: Int = 30

    @Option(help: "Untimed runs first, so caches and thread pools are warm.")
    var warmup: Int = 5

    @Option(help: "Objects below this confidence are dropped (the product's announcement threshold by default; 0.25 is Ultralytics' predict default).")
    var confidence: Float = DescriptionSettings.defaultMinimumConfidence

    @Option(help: "NMS IoU threshold (0.45 is the product's, 0.7 Ultralytics' predict default).")
    var iou: Float = 0.45

    @Flag(help: "Print the numbers as JSON, with the detections of the last run of each picture.")
    var json = false

    @Flag(help: "Read picture paths from standard input, one a line; describe each once, time raw inference once, and answer with one JSON line (milliseconds by stage, detections). Lets a driver interleave our runs with a reference pipeline's, run by run, so both see the same machine load.")
    var serve = false

    func validate() throws {
        guard runs >= 1, warmup >= 0 else { throw ValidationError("--runs must be at least 1 and --warmup at least 0.") }
        guard (0...1).contains(confidence) else { throw ValidationError("--confidence must be from 0 to 1, not \(confidence).") }
        guard iou > 0, iou <= 1 else { throw ValidationError("--iou must be above 0 and at most 1, not \(iou).") }
    }

    func run() async throws {
        let pictures = try images.isEmpty ? [Self.defaultImage()] : images.map { URL(fileURLWithPath: $0) }
        let core = try InferenceCore()
        let describer = try SceneDescriber(settings: try DescriptionSettings(minimumConfidence: confidence))
        let analyzer = try SceneAnalyzer(detector: try detector.makeDetector(core: core),
                                         locator: try ObjectLocator(), describer: describer, iouThreshold: iou)
        if serve { return try serveRequests(analyzer: analyzer) }
        let square = try detector.choice.squareCompanion(of: analyzer.detector, core: core, warn: UserData.warn)
        let benchmark = VisionBenchmark(analyzer: analyzer, square: square,
                                        squareSettings: DetectorSettings(confidenceThreshold: confidence, iouThreshold: iou),
                                        runs: runs, warmup: warmup, requestedPrecision: detector.precision.rawValue)
        let results = try pictures.map(benchmark.measure)
        if json {
            print(try JSONReport.text(results))
            return
        }
        for result in results { print(result.table()) }
    }

    private func serveRequests(analyzer: SceneAnalyzer) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        while let line = readLine() {
            let path = line.trimmingCharacters(in: .whitespaces)
            guard !path.isEmpty else { continue }
            let sample = try VisionBenchmark.sample(URL(fileURLWithPath: path), analyzer: analyzer)
            // FileHandle writes unbuffered: the driver waits for this line before the next request.
            FileHandle.standardOutput.write(try encoder.encode(sample) + Data("\n".utf8))
        }
    }

    static func defaultImage() throws -> URL {
        guard let data = ModelLocator().sharedDataDirectory() else { throw CommandFailure("../shared/data/images/bus.jpg was not found; name a picture.") }
        return data.appendingPathComponent("images/bus.jpg")
    }
}
