import AssistCore
import Foundation
import Perception
import Testing
import TestSupport
@testable import Evaluation

@Suite("The precision check measures f32 and bf16 and records them for auto (issue 20, item 4)")
struct PrecisionCheckTests {
    /// Two coco128 pictures of one aspect (640×480, 640×478: one compiled shape), with their labels.
    private static func smallDataset() throws -> URL {
        let root = try TemporaryFolder.make("precision-check")
        for kind in ["images", "labels"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(kind), withIntermediateDirectories: true)
        }
        for name in ["000000000009", "000000000042"] {
            try FileManager.default.copyItem(at: SharedFiles.data("coco128/images/train2017/\(name).jpg"),
                                             to: root.appendingPathComponent("images/\(name).jpg"))
            try FileManager.default.copyItem(at: SharedFiles.data("coco128/labels/train2017/\(name).txt"),
                                             to: root.appendingPathComponent("labels/\(name).txt"))
        }
        return root
    }

    @Test("a check on a labelled set is saved under the model's content, the CPU and the input shape, and auto follows it")
    func checkIsRecordedAndUsed() throws {
        let dataset = try Self.smallDataset()
        let storeFolder = try TemporaryFolder.make("precision-checks")
        defer {
            try? FileManager.default.removeItem(at: dataset)
            try? FileManager.default.removeItem(at: storeFolder)
        }
        let store = PrecisionCheckStore(folder: storeFolder)
        let cpu = CPUCapabilities(modelName: "AMD EPYC", flags: ["avx2", "avx512f", "avx512_bf16"])
        let model = SharedFiles.model("yolo11n_int8_openvino_model/yolo11n.xml")
        let choice = DetectorChoice(modelPath: model.path, inputShape: .rectangularPadded, usesModelCache: false)
        let core = try InferenceCore()
        var compiledIn: [PrecisionRequest: String] = [:]
        let outcome = try PrecisionCheck(choice: choice, cpu: cpu, store: store).run(datasetAt: dataset) { fixed in
            let detector = try fixed.makeDetector(core: core, cpu: cpu, precisionChecks: store, warn: { _ in })
            compiledIn[fixed.precision] = detector.compiledPrecision ?? "unreported"
            return detector
        }

        #expect(Set(compiledIn.keys) == [.f32, .bf16], "one f32 and one bf16 detector")
        #expect(compiledIn[.f32] == "f32")
        let record = outcome.record
        #expect((record.bf16CompiledAs ?? "unreported") == compiledIn[.bf16], "what OpenVINO reported is recorded, not what was asked")
        #expect(record.imageCount == 2)
        #expect(record.inputShape == "rectangular-padded")
        #expect(record.dataset == dataset.path)
        #expect(record.modelSHA256 == ModelChecksums.contentDigest(of: model))
        #expect(record.openVINOVersion == InferenceCore.version())
        #expect(record.f32.meanAveragePrecision50 > 0.3, "the model finds the labelled objects")
        #expect(store.record(modelSHA256: record.modelSHA256, cpu: cpu, inputShape: "rectangular-padded") == record)
        #expect(FileManager.default.fileExists(atPath: outcome.recordFile))
        #expect(store.record(modelSHA256: record.modelSHA256, cpu: cpu, inputShape: "square") == nil)

        let expected = PrecisionRule.decide(.auto, device: .cpu, cpu: cpu, openVINOVersion: InferenceCore.version()) { record }
        #expect(outcome.autoPrecision == expected)
        var auto = choice
        auto.precision = .auto
        #expect(auto.precisionDecision(forModel: model, cpu: cpu, checks: store) == expected)
        #expect(outcome.lines.last == "auto precision here: \(expected.precision.rawValue), as \(expected.reason).")
        #expect(expected.precision == .f32 && expected.reason.contains("used 2 images"), "two pictures are too few to choose bf16 on")
    }

    @Test("a folder with no image that can be evaluated records nothing")
    func nothingEvaluatedRecordsNothing() throws {
        let dataset = try TemporaryFolder.make("precision-check-empty")
        let storeFolder = TemporaryFolder.path("precision-checks")
        defer {
            try? FileManager.default.removeItem(at: dataset)
            try? FileManager.default.removeItem(at: storeFolder)
        }
        try FileManager.default.createDirectory(at: dataset.appendingPathComponent("images"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dataset.appendingPathComponent("labels"), withIntermediateDirectories: true)
        try Data("not a picture".utf8).write(to: dataset.appendingPathComponent("images/broken.jpg"))
        try Data("0 0.5 0.5 0.2 0.2\n".utf8).write(to: dataset.appendingPathComponent("labels/broken.txt"))
        let model = SharedFiles.model("yolo11n_int8_openvino_model/yolo11n.xml")
        let choice = DetectorChoice(modelPath: model.path, usesModelCache: false)
        let core = try InferenceCore()
        #expect(throws: EvaluationError.nothingEvaluated(folder: dataset.path)) {
            _ = try PrecisionCheck(choice: choice, store: PrecisionCheckStore(folder: storeFolder)).run(datasetAt: dataset) {
                try $0.makeDetector(core: core, warn: { _ in })
            }
        }
        #expect(!FileManager.default.fileExists(atPath: storeFolder.path))
    }
}
