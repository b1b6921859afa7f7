import AssistCore
import Foundation
import Guidance
import Media
import Perception

/// `assist bench vision`: each picture described `runs` times after `warmup` runs, stage by
/// stage, beside raw OpenVINO inference on the same input (the floor the pipeline is measured
/// against) and, for rectangular input, the model's square input interleaved run by run, so both
/// are measured in the same run and under the same load.
public struct VisionBenchmark {
    public let analyzer: SceneAnalyzer
    /// The square input beside the rectangular one, for the ratio; nil when square is what runs.
    public let square: ObjectDetector?
    public let squareSettings: DetectorSettings
    public let runs: Int
    public let warmup: Int
    /// The precision named when the compiled model does not report its own.
    public let requestedPrecision: String

    public init(analyzer: SceneAnalyzer, square: ObjectDetector?, squareSettings: DetectorSettings, runs: Int, warmup: Int,
                requestedPrecision: String) {
        self.analyzer = analyzer
        self.square = square
        self.squareSettings = squareSettings
        self.runs = runs
        self.warmup = warmup
        self.requestedPrecision = requestedPrecision
    }

    public func measure(_ url: URL) throws -> VisionBenchResult {
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
            for (stage, value) in Self.stageMilliseconds(report.timings) { record(stage, value) }
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
        return VisionBenchResult(image: url.lastPathComponent, model: analyzer.detector.modelURL.lastPathComponent,
                                 precision: analyzer.detector.compiledPrecision ?? requestedPrecision,
                                 precisionDecision: analyzer.detector.precisionDecision,
                                 runs: runs, stages: rows, imageWidth: imageSize.width, imageHeight: imageSize.height,
                                 inputShape: analyzer.detector.inputShape.rawValue,
                                 inputWidth: used.width, inputHeight: used.height,
                                 squareInputWidth: square?.lastInputSize.width,
                                 squareInputHeight: square?.lastInputSize.height,
                                 detections: detections)
    }

    /// One `--serve` answer: the picture described once, and one raw inference after it.
    public static func sample(_ url: URL, analyzer: SceneAnalyzer) throws -> VisionBenchSample {
        let clock = ContinuousClock()
        let start = clock.now
        let image = try ImageFile(url).decode()
        let decode = (clock.now - start).milliseconds
        var report = try analyzer.analyze(Frame(image: image, sourceName: url.lastPathComponent))
        report.timings.decodeMilliseconds = decode
        var milliseconds = stageMilliseconds(report.timings)
        milliseconds["raw inference"] = try analyzer.detector.rawInference()
        return VisionBenchSample(milliseconds: milliseconds, imageWidth: image.width, imageHeight: image.height,
                                 detections: report.objects.map(\.detection).sorted { $0.confidence > $1.confidence })
    }

    /// The pipeline's stages by the names the tables print.
    static func stageMilliseconds(_ t: StageTimings) -> [String: Double] {
        ["decode": t.decodeMilliseconds, "quality check": t.qualityCheckMilliseconds,
         "pre-process": t.preprocessMilliseconds, "inference": t.inferenceMilliseconds,
         "post-process": t.postprocessMilliseconds, "distance": t.distanceMilliseconds,
         "sentences": t.describeMilliseconds, "total": t.totalMilliseconds,
         "total without decode": t.afterDecodeMilliseconds,
         "overhead": t.afterDecodeMilliseconds - t.inferenceMilliseconds]
    }
}

/// One `--serve` answer: one description of one picture, and one raw inference after it.
public struct VisionBenchSample: Encodable, Sendable {
    public var milliseconds: [String: Double]
    public var imageWidth: Int
    public var imageHeight: Int
    public var detections: [Detection]
}

public struct StageStatistic: Encodable, Sendable {
    public var stage: String
    public var medianMilliseconds: Double
    public var percentile95Milliseconds: Double

    public init(stage: String, values: [Double]) {
        self.stage = stage
        let sorted = values.sorted()
        medianMilliseconds = sorted.isEmpty ? 0 : (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
        percentile95Milliseconds = NearestRank.percentile95(sorted) ?? 0
    }
}

public struct VisionBenchResult: Encodable, Sendable {
    public var image: String
    public var model: String
    /// What OpenVINO reported compiling in (the requested precision when it reports none).
    public var precision: String
    /// Which precision was asked of OpenVINO and why (`auto` or a fixed one).
    public var precisionDecision: PrecisionDecision?
    public var runs: Int
    public var stages: [StageStatistic]
    public var imageWidth: Int
    public var imageHeight: Int
    /// "rectangular" or "square", and the detector input size the picture ran at.
    public var inputShape: String
    public var inputWidth: Int
    public var inputHeight: Int
    /// The square input timed beside it (absent when square is what runs).
    public var squareInputWidth: Int?
    public var squareInputHeight: Int?
    /// What the last timed run found, highest confidence first: compared with the reference pipeline's.
    public var detections: [Detection]

    public func table() -> String {
        var lines = ["\(image) (\(imageWidth)×\(imageHeight)) with \(model) (\(precision)), \(inputShape) input \(inputWidth)×\(inputHeight), median and p95 of \(runs) runs:"]
        if let decision = precisionDecision {
            lines.insert("precision \(decision.precision.rawValue) (\(decision.requested.rawValue) asked for: \(decision.reason)); OpenVINO compiled \(decision.compiledAs ?? "without saying in what")", at: 0)
        }
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
