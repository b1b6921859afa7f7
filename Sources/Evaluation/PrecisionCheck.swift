import AssistCore
import Foundation
import Perception

/// `assist eval detection DATASET --precision-check`: the detector's accuracy on a labelled set in
/// f32 and in bf16, one after the other, recorded for this model's content and this CPU so that
/// `auto` precision (`PrecisionRule`) runs bf16 only where bf16 was measured to stay close to f32.
public struct PrecisionCheck {
    public var choice: DetectorChoice
    public var settings: DetectorSettings
    public var cpu: CPUCapabilities
    public var store: PrecisionCheckStore

    public init(choice: DetectorChoice, settings: DetectorSettings = .evaluation, cpu: CPUCapabilities = .current(),
                store: PrecisionCheckStore = PrecisionCheckStore()) {
        self.choice = choice
        self.settings = settings
        self.cpu = cpu
        self.store = store
    }

    /// What a check found and what `auto` now chooses here.
    public struct Outcome: Encodable, Sendable {
        public var record: PrecisionCheckRecord
        /// Where the record was saved.
        public var recordFile: String
        public var autoPrecision: PrecisionDecision

        /// The lines `assist eval detection --precision-check` prints.
        public var lines: [String] {
            func accuracy(_ a: PrecisionCheckRecord.Accuracy) -> String {
                String(format: "mAP50-95 %.4f  mAP50 %.4f", a.meanAveragePrecision50to95, a.meanAveragePrecision50)
            }
            return ["f32:  \(accuracy(record.f32))",
                    "bf16: \(accuracy(record.bf16))  (OpenVINO compiled it as \(record.bf16CompiledAs ?? "an unreported precision"))",
                    String(format: "bf16's loss against f32: %.2f mAP points (the larger of the mAP50-95 and mAP50 losses, negative for a gain; auto may choose bf16 at %.1f or less)",
                           record.bf16LossPoints, PrecisionRule.allowedLossPoints),
                    "recorded in \(recordFile)",
                    "auto precision here: \(autoPrecision.precision.rawValue), as \(autoPrecision.reason)."]
        }
    }

    /// Evaluates the dataset at `folder` in f32, then bf16, with detectors `makeDetector` opens
    /// from the choice it is given (the precision fixed), saves the record and returns it.
    public func run(datasetAt folder: URL, makeDetector: (DetectorChoice) throws -> ObjectDetector,
                    progress: (_ precision: InferencePrecision, _ done: Int, _ total: Int) -> Void = { _, _, _ in }) throws -> Outcome {
        let data = try YOLODataset(at: folder)
        let model = try choice.modelURL()
        guard let digest = ModelChecksums.contentDigest(of: model) else {
            throw EvaluationError.modelUnidentifiable(path: model.path)
        }
        var results: [InferencePrecision: (accuracy: DetectionAccuracy, compiledAs: String?)] = [:]
        for precision in [InferencePrecision.f32, .bf16] {
            var fixed = choice
            fixed.precision = PrecisionRequest(rawValue: precision.rawValue) ?? .f32
            let detector = try makeDetector(fixed)
            let report = DetectionEvaluator(dataset: data, classNames: detector.classNames.names)
                .run(detector: detector, settings: settings) { progress(precision, $0, $1) }
            guard report.accuracy.imageCount > 0 else {
                throw EvaluationError.nothingEvaluated(folder: folder.path)
            }
            results[precision] = (report.accuracy, detector.compiledPrecision)
        }
        func accuracy(_ precision: InferencePrecision) -> PrecisionCheckRecord.Accuracy {
            let measured = results[precision]!.accuracy
            return .init(meanAveragePrecision50to95: measured.meanAveragePrecision50to95,
                         meanAveragePrecision50: measured.meanAveragePrecision50)
        }
        let record = PrecisionCheckRecord(modelSHA256: digest, modelFile: model.path, cpu: cpu,
                                          openVINOVersion: InferenceCore.version(), dataset: folder.path,
                                          inputShape: choice.inputShape.rawValue,
                                          imageCount: results[.f32]!.accuracy.imageCount, f32: accuracy(.f32), bf16: accuracy(.bf16),
                                          bf16CompiledAs: results[.bf16]?.compiledAs, measuredAt: Date())
        do { try store.save(record) } catch {
            throw EvaluationError.checkNotSaved(folder: store.folder.path, reason: userMessage(for: error))
        }
        var auto = choice
        auto.precision = .auto
        return Outcome(record: record, recordFile: store.fileURL(modelSHA256: digest, cpu: cpu, inputShape: choice.inputShape.rawValue).path,
                       autoPrecision: auto.precisionDecision(forModel: model, cpu: cpu, checks: store))
    }

    /// `assist eval detection DATASET --precision-check`: runs the check with progress on standard
    /// error and prints the outcome, as JSON or as lines.
    public func printCheck(datasetAt folder: URL, json: Bool, makeDetector: (DetectorChoice) throws -> ObjectDetector) throws {
        let outcome = try run(datasetAt: folder, makeDetector: makeDetector) { precision, done, total in
            FileHandle.standardError.write(Data("\r\(precision.rawValue): \(done)/\(total) images\(done == total ? "\n" : "")".utf8))
        }
        guard json else { return print(outcome.lines.joined(separator: "\n")) }
        // As the stored record writes its date (JSONReport would write seconds since 2001).
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        print(String(decoding: try encoder.encode(outcome), as: UTF8.self))
    }
}
