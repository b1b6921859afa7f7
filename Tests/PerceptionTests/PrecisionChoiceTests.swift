import Foundation
import Perception
import Testing
import TestSupport

/// CPUs as the kernel lists them (the flags that matter, among others a real CPU has).
private enum TestCPU {
    static let avx2Only = CPUCapabilities(cpuinfo: """
        processor\t: 0
        model name\t: Intel(R) Core(TM) i7-10510U CPU @ 1.80GHz
        flags\t\t: fpu sse2 avx avx2 fma bmi2
        """)
    static let avx512BF16 = CPUCapabilities(cpuinfo: """
        processor\t: 0
        model name\t: AMD EPYC
        flags\t\t: fpu sse2 avx avx2 avx512f avx512bw avx512_bf16 avx512_vnni
        processor\t: 1
        model name\t: AMD EPYC
        flags\t\t: fpu sse2 avx avx2 avx512f avx512bw avx512_bf16 avx512_vnni
        """)
    static let amx = CPUCapabilities(modelName: "Intel(R) Xeon(R) Platinum 8480+",
                                     flags: ["avx2", "avx512f", "avx512_bf16", "amx_bf16", "amx_tile", "amx_int8"])
}

private func record(lossPoints: Double, cpu: CPUCapabilities = TestCPU.avx512BF16, digest: String = String(repeating: "ab", count: 32),
                    openVINO: String = "2026.4.1-test", compiledAs: String? = "bf16",
                    inputShape: String = "rectangular-padded") -> PrecisionCheckRecord {
    PrecisionCheckRecord(modelSHA256: digest, modelFile: "/models/yolo11n.xml", cpu: cpu, openVINOVersion: openVINO,
                         dataset: "/data/coco128", inputShape: inputShape, imageCount: 128,
                         f32: .init(meanAveragePrecision50to95: 0.4931, meanAveragePrecision50: 0.6618),
                         bf16: .init(meanAveragePrecision50to95: 0.4931 - lossPoints / 100, meanAveragePrecision50: 0.6618 - lossPoints / 100),
                         bf16CompiledAs: compiledAs, measuredAt: Date(timeIntervalSince1970: 1_790_000_000))
}

private func decide(_ request: PrecisionRequest = .auto, cpu: CPUCapabilities, device: InferenceDevice = .cpu,
                    openVINO: String = "2026.4.1-test", _ record: PrecisionCheckRecord?) -> PrecisionDecision {
    PrecisionRule.decide(request, device: device, cpu: cpu, openVINOVersion: openVINO) { record }
}

@Suite("Precision by CPU (issue 20, item 4)")
struct PrecisionChoiceTests {
    @Test("cpuinfo is read for the model name and the first processor's flags")
    func readsCPUInfo() {
        #expect(TestCPU.avx512BF16.modelName == "AMD EPYC")
        #expect(TestCPU.avx512BF16.nativeBF16 == "avx512_bf16")
        #expect(TestCPU.avx2Only.nativeBF16 == nil)
        #expect(TestCPU.amx.nativeBF16 == "amx_bf16")
        #expect(CPUCapabilities(modelName: "x", flags: ["amx_bf16"]).nativeBF16 == nil, "AMX bf16 without tiles is not usable")
        #expect(CPUCapabilities(cpuinfo: "").nativeBF16 == nil)
    }

    @Test("an AVX2-only CPU runs f32 even with a passing check, and never looks the check up")
    func avx2RunsF32() {
        var asked = false
        let decision = PrecisionRule.decide(.auto, device: .cpu, cpu: TestCPU.avx2Only, openVINOVersion: "2026.4.1-test") {
            asked = true
            return record(lossPoints: 0.1, cpu: TestCPU.avx2Only)
        }
        #expect(decision.precision == .f32)
        #expect(decision.reason.contains("no native bf16"))
        #expect(!asked)
    }

    @Test("AVX-512 BF16 runs bf16 with a check within 0.5 points, and f32 with a failing or missing one")
    func avx512FollowsTheCheck() {
        let passing = decide(cpu: TestCPU.avx512BF16, record(lossPoints: 0.3))
        #expect(passing.precision == .bf16)
        #expect(passing.reason.contains("avx512_bf16") && passing.reason.contains("lost 0.30 mAP points against f32 on coco128 (128 images, rectangular-padded input)"))
        #expect(decide(cpu: TestCPU.avx512BF16, record(lossPoints: 0.5)).precision == .bf16, "0.5 itself is within")
        let failing = decide(cpu: TestCPU.avx512BF16, record(lossPoints: 0.69))
        #expect(failing.precision == .f32)
        #expect(failing.reason.contains("lost 0.69 mAP points"))
        let missing = decide(cpu: TestCPU.avx512BF16, nil)
        #expect(missing.precision == .f32)
        #expect(missing.reason.contains("a precision check of assist eval detection") && !missing.reason.contains("--"))
        #expect(decide(cpu: TestCPU.avx512BF16, record(lossPoints: -0.2)).reason.contains("gained 0.20"))
    }

    @Test("a mAP50 loss counts as much as a mAP50-95 loss")
    func eitherMetricCounts() {
        var check = record(lossPoints: 0.1)
        check.bf16.meanAveragePrecision50 = check.f32.meanAveragePrecision50 - 0.008
        #expect(check.bf16LossPoints > 0.79 && check.bf16LossPoints < 0.81)
        #expect(decide(cpu: TestCPU.avx512BF16, check).precision == .f32)
    }

    @Test("AMX runs bf16 with a passing check")
    func amxFollowsTheCheck() {
        let decision = decide(cpu: TestCPU.amx, record(lossPoints: 0.2, cpu: TestCPU.amx))
        #expect(decision.precision == .bf16)
        #expect(decision.reason.contains("amx_bf16"))
    }

    @Test("a check from another OpenVINO build, whose bf16 run was not bf16, or on too few images, does not count")
    func staleOrEmptyCheckRunsF32() {
        #expect(decide(cpu: TestCPU.avx512BF16, openVINO: "2027.0.0", record(lossPoints: 0.1)).precision == .f32)
        #expect(decide(cpu: TestCPU.avx512BF16, record(lossPoints: 0, compiledAs: "f32")).precision == .f32)
        var few = record(lossPoints: 0.1)
        few.imageCount = 2
        let decision = decide(cpu: TestCPU.avx512BF16, few)
        #expect(decision.precision == .f32)
        #expect(decision.reason.contains("used 2 images; at least 100"))
    }

    @Test("a fixed --precision is used as asked, and auto on another device is f32")
    func fixedAndOtherDevices() {
        #expect(decide(.bf16, cpu: TestCPU.avx2Only, nil).precision == .bf16)
        #expect(decide(.f16, cpu: TestCPU.avx512BF16, nil).precision == .f16)
        #expect(decide(.f32, cpu: TestCPU.amx, record(lossPoints: 0, cpu: TestCPU.amx)).precision == .f32)
        #expect(decide(cpu: TestCPU.avx512BF16, device: .gpu, record(lossPoints: 0)).precision == .f32)
    }

    @Test("a saved check is read back for the same model content, CPU and input shape only")
    func storeRoundTrip() throws {
        let folder = try TemporaryFolder.make("precision-checks")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = PrecisionCheckStore(folder: folder)
        let digest = String(repeating: "cd", count: 32), shape = "rectangular-padded"
        #expect(store.record(modelSHA256: digest, cpu: TestCPU.avx512BF16, inputShape: shape) == nil)
        let saved = record(lossPoints: 0.4, digest: digest)
        try store.save(saved)
        #expect(store.record(modelSHA256: digest, cpu: TestCPU.avx512BF16, inputShape: shape) == saved)
        #expect(store.record(modelSHA256: digest, cpu: TestCPU.avx512BF16, inputShape: "square") == nil)
        #expect(store.record(modelSHA256: String(repeating: "ef", count: 32), cpu: TestCPU.avx512BF16, inputShape: shape) == nil)
        #expect(store.record(modelSHA256: digest, cpu: TestCPU.amx, inputShape: shape) == nil)
        let renamed = CPUCapabilities(modelName: "AMD EPYC 9654", flags: TestCPU.avx512BF16.flags)
        #expect(store.record(modelSHA256: digest, cpu: renamed, inputShape: shape) == nil)

        let square = record(lossPoints: 0.9, digest: digest, inputShape: "square")
        try store.save(square)
        #expect(store.record(modelSHA256: digest, cpu: TestCPU.avx512BF16, inputShape: "square") == square)
        #expect(store.record(modelSHA256: digest, cpu: TestCPU.avx512BF16, inputShape: shape) == saved, "shapes are kept apart")

        try Data("{ not json".utf8).write(to: store.fileURL(modelSHA256: digest, cpu: TestCPU.avx512BF16, inputShape: shape))
        #expect(store.record(modelSHA256: digest, cpu: TestCPU.avx512BF16, inputShape: shape) == nil, "a damaged check is no check")
    }

    @Test("the shared model's check is found by its content: bf16 decided on AVX-512 BF16, f32 compiled on AVX2")
    func sharedModel() throws {
        let folder = try TemporaryFolder.make("precision-checks")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = PrecisionCheckStore(folder: folder)
        let digest = try #require(ModelChecksums.contentDigest(of: SharedFiles.irModel))
        try store.save(record(lossPoints: 0.2, digest: digest, openVINO: InferenceCore.version()))
        let choice = DetectorChoice(modelPath: SharedFiles.irModel.path, inputShape: .rectangularPadded, usesModelCache: false)
        #expect(choice.precisionDecision(forModel: SharedFiles.irModel, cpu: TestCPU.avx512BF16, checks: store).precision == .bf16)
        #expect(choice.precisionDecision(forModel: SharedFiles.irModel, inputShape: .square, cpu: TestCPU.avx512BF16,
                                         checks: store).precision == .f32, "checked at rectangular-padded input only")

        // Compiling on an injected AVX2 CPU: OpenVINO is told f32 and reports f32 back, on any machine.
        let detector = try choice.makeDetector(core: InferenceCore(), cpu: TestCPU.avx2Only, precisionChecks: store, warn: { _ in })
        #expect(detector.options.precision == .f32)
        #expect(detector.precisionDecision?.precision == .f32)
        #expect(detector.precisionDecision?.compiledAs == "f32")
        #expect(detector.compiledPrecision == "f32")
        #expect(choice.inferenceOptions.precision == .f32, "other models (depth) have no check: auto is f32 for them")
    }
}
