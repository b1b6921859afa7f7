import ArgumentParser
import AssistCore
import Foundation
import Guidance
import Media
import Perception

struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measures the speed of the vision pipeline stage by stage (build with -c release).",
        shouldDisplay: false,
        subcommands: [BenchVision.self, BenchHearingFile.self, BenchVoice.self, BenchCommands.self])
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
        """)

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
        // The square input beside the rectangular one, for the ratio; not needed when square is what runs.
        let square = analyzer.detector.inputShape == .square ? nil : try detector.makeDetector(core: core, inputShape: .square)
        let squareSettings = DetectorSettings(confidenceThreshold: confidence, iouThreshold: iou)
        var results: [VisionBenchResult] = []
        for url in pictures {
            let clock = ContinuousClock()
            var samples: [String: [Double]] = [:]
            var detections: [Detection] = []
            var imageSize = (width: 0, height: 0)
            func record(_ stage: String, _ value: Double) { samples[stage, default: []].append(value) }
            for run in 0..<(warmup + runs) {
                let start = clock.now
                let image = try ImageFile(url).decode()
                let decode = (clock.now - start).milliseconds
                var report = try analyzer.analyze(Frame(image: image, sourceName: url.lastPathComponent))
                report.timings.decodeMilliseconds = decode
                imageSize = (image.width, image.height)
                detections = report.objects.map(\.detection).sorted { $0.confidence > $1.confidence }
                let squareInference = try square?.detect(image, settings: squareSettings).timings.inferenceMilliseconds
                guard run >= warmup else { continue }
                if let squareInference { record("inference, square", squareInference) }
                let t = report.timings
                record("decode", t.decodeMilliseconds)
                record("quality check", t.qualityCheckMilliseconds)
                record("pre-process", t.preprocessMilliseconds)
                record("inference", t.inferenceMilliseconds)
                record("post-process", t.postprocessMilliseconds)
                record("distance", t.distanceMilliseconds)
                record("sentences", t.describeMilliseconds)
                record("total", t.totalMilliseconds)
                record("total without decode", t.afterDecodeMilliseconds)
                record("overhead", t.afterDecodeMilliseconds - t.inferenceMilliseconds)
            }
            for run in 0..<(warmup + runs) {
                let raw = try analyzer.detector.rawInference()
                let squareRaw = try square?.rawInference()
                guard run >= warmup else { continue }
                record("raw inference", raw)
                if let squareRaw { record("raw inference, square", squareRaw) }
            }
            var stages = ["decode", "quality check", "pre-process", "inference", "post-process", "distance", "sentences",
                          "total", "total without decode", "overhead", "raw inference"]
            if square != nil { stages += ["inference, square", "raw inference, square"] }
            let used = analyzer.detector.lastInputSize
            let rows = stages.map { StageStatistic(stage: $0, values: samples[$0] ?? []) }
            results.append(VisionBenchResult(image: url.lastPathComponent, model: analyzer.detector.modelURL.lastPathComponent,
                                             precision: analyzer.detector.compiledPrecision ?? detector.precision.rawValue,
                                             runs: runs, stages: rows, imageWidth: imageSize.width, imageHeight: imageSize.height,
                                             inputShape: analyzer.detector.inputShape.rawValue,
                                             inputWidth: used.width, inputHeight: used.height,
                                             squareInputWidth: square?.lastInputSize.width,
                                             squareInputHeight: square?.lastInputSize.height,
                                             detections: detections))
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(results), as: UTF8.self))
            return
        }
        for result in results { print(result.table()) }
    }

    private func serveRequests(analyzer: SceneAnalyzer) throws {
        let clock = ContinuousClock()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        while let line = readLine() {
            let path = line.trimmingCharacters(in: .whitespaces)
            guard !path.isEmpty else { continue }
            let url = URL(fileURLWithPath: path)
            let start = clock.now
            let image = try ImageFile(url).decode()
            let decode = (clock.now - start).milliseconds
            var report = try analyzer.analyze(Frame(image: image, sourceName: url.lastPathComponent))
            report.timings.decodeMilliseconds = decode
            let raw = try analyzer.detector.rawInference()
            let t = report.timings
            let sample = VisionBenchSample(
                milliseconds: ["decode": t.decodeMilliseconds, "quality check": t.qualityCheckMilliseconds,
                               "pre-process": t.preprocessMilliseconds, "inference": t.inferenceMilliseconds,
                               "post-process": t.postprocessMilliseconds, "distance": t.distanceMilliseconds,
                               "sentences": t.describeMilliseconds, "total": t.totalMilliseconds,
                               "total without decode": t.afterDecodeMilliseconds,
                               "overhead": t.afterDecodeMilliseconds - t.inferenceMilliseconds, "raw inference": raw],
                imageWidth: image.width, imageHeight: image.height,
                detections: report.objects.map(\.detection).sorted { $0.confidence > $1.confidence })
            // FileHandle writes unbuffered: the driver waits for this line before the next request.
            FileHandle.standardOutput.write(try encoder.encode(sample) + Data("\n".utf8))
        }
    }

    static func defaultImage() throws -> URL {
        guard let models = ModelLocator().modelsDirectory() else { throw CommandFailure("../shared/data/images/bus.jpg was not found; name a picture.") }
        return models.deletingLastPathComponent().appendingPathComponent("data/images/bus.jpg")
    }
}

/// One `--serve` answer: one description of one picture, and one raw inference after it.
struct VisionBenchSample: Encodable {
    var milliseconds: [String: Double]
    var imageWidth: Int
    var imageHeight: Int
    var detections: [Detection]
}

struct StageStatistic: Encodable {
    var stage: String
    var medianMilliseconds: Double
    var percentile95Milliseconds: Double

    init(stage: String, values: [Double]) {
        self.stage = stage
        let sorted = values.sorted()
        medianMilliseconds = sorted.isEmpty ? 0 : (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
        percentile95Milliseconds = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.95).rounded(.up)) - 1)]
    }
}

struct VisionBenchResult: Encodable {
    var image: String
    var model: String
    var precision: String
    var runs: Int
    var stages: [StageStatistic]
    var imageWidth: Int
    var imageHeight: Int
    /// "rectangular" or "square", and the detector input size the picture ran at.
    var inputShape: String
    var inputWidth: Int
    var inputHeight: Int
    /// The square input timed beside it (absent when square is what runs).
    var squareInputWidth: Int?
    var squareInputHeight: Int?
    /// What the last timed run found, highest confidence first: compared with the reference pipeline's.
    var detections: [Detection]

    func table() -> String {
        var lines = ["\(image) (\(imageWidth)×\(imageHeight)) with \(model) (\(precision)), \(inputShape) input \(inputWidth)×\(inputHeight), median and p95 of \(runs) runs:"]
        for row in stages {
            lines.append(row.stage.padding(toLength: 22, withPad: " ", startingAt: 0)
                         + String(format: "%8.2f ms %8.2f ms", row.medianMilliseconds, row.percentile95Milliseconds))
        }
        let median = Dictionary(uniqueKeysWithValues: stages.map { ($0.stage, $0.medianMilliseconds) })
        if let raw = median["raw inference"], raw > 0, let overhead = median["overhead"], let pipeline = median["total without decode"] {
            lines.append(String(format: "pipeline without decode / raw inference: %.3f (overhead %.1f %% of raw inference; target at most 20 %%)",
                                pipeline / raw, overhead / raw * 100))
        }
        if let squareWidth = squareInputWidth, let squareHeight = squareInputHeight,
           let inference = median["inference"], let squareInference = median["inference, square"], squareInference > 0,
           let raw = median["raw inference"], let squareRaw = median["raw inference, square"], squareRaw > 0 {
            lines.append(String(format: "input %d×%d against square %d×%d: inference %.2f ms against %.2f ms (ratio %.3f), raw inference %.2f ms against %.2f ms (ratio %.3f)",
                                inputWidth, inputHeight, squareWidth, squareHeight, inference, squareInference,
                                inference / squareInference, raw, squareRaw, raw / squareRaw))
        }
        return lines.joined(separator: "\n")
    }
}
