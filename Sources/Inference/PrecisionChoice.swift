import AssistCore
import Foundation

// Issue 20, item 4: bf16 is chosen by itself only on a CPU that computes bf16 natively and only for
// a model whose bf16 accuracy was measured on this kind of CPU and found within 0.5 mAP points of
// f32. Everything else runs f32, and OpenVINO is told so explicitly: left alone, its CPU plugin
// switches to bf16 by itself on such CPUs (measured on an AVX-512 BF16 EPYC: no hint → bf16).

/// What `--precision` asks for: a fixed precision, or `auto` (the rule below decides).
public enum PrecisionRequest: String, Sendable, CaseIterable, Codable {
    case auto
    case f32
    case bf16
    case f16

    /// The precision asked for, or nil for `auto`.
    public var fixed: InferencePrecision? { InferencePrecision(rawValue: rawValue) }
}

/// What the CPU can compute natively, read from the kernel's flags (`/proc/cpuinfo`).
public struct CPUCapabilities: Sendable, Equatable {
    /// "AMD EPYC", "Intel(R) Xeon(R) Platinum 8480+", …; part of a precision check's key.
    public var modelName: String
    public var flags: Set<String>

    public init(modelName: String, flags: Set<String>) {
        self.modelName = modelName
        self.flags = flags
    }

    /// The first processor's "model name" and "flags" lines of a `/proc/cpuinfo` text.
    public init(cpuinfo: String) {
        var name = "", flags: Set<String> = []
        for line in cpuinfo.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let key = parts[0].trimmingCharacters(in: .whitespaces), value = parts[1].trimmingCharacters(in: .whitespaces)
            if key == "model name" && name.isEmpty { name = value }
            if key == "flags" && flags.isEmpty { flags = Set(value.split(separator: " ").map(String.init)) }
        }
        self.init(modelName: name, flags: flags)
    }

    /// This machine's CPU. An unreadable cpuinfo gives no flags, so nothing but f32 is chosen.
    public static func current(cpuinfo: URL = URL(fileURLWithPath: "/proc/cpuinfo")) -> CPUCapabilities {
        CPUCapabilities(cpuinfo: (try? String(contentsOf: cpuinfo, encoding: .utf8)) ?? "")
    }

    /// The instructions that compute bf16 natively, in the kernel's words: AMX's tile
    /// multiply (`amx_bf16`, which needs `amx_tile`) first, then AVX-512's (`avx512_bf16`); nil
    /// on CPUs without either (AVX2 only), where OpenVINO's bf16 would be emulated, not faster.
    public var nativeBF16: String? {
        if flags.contains("amx_bf16") && flags.contains("amx_tile") { return "amx_bf16" }
        if flags.contains("avx512_bf16") { return "avx512_bf16" }
        return nil
    }
}

/// The outcome of `assist eval detection --precision-check`: f32 and bf16 accuracy of one model
/// file on one labelled set, on one kind of CPU and OpenVINO build. Stored beside the
/// compiled-model cache; `PrecisionRule` reads it.
public struct PrecisionCheckRecord: Codable, Sendable, Equatable {
    /// Accuracy as fractions (0.4931 is 49.31 mAP points).
    public struct Accuracy: Codable, Sendable, Equatable {
        public var meanAveragePrecision50to95: Double
        public var meanAveragePrecision50: Double
        public init(meanAveragePrecision50to95: Double, meanAveragePrecision50: Double) {
            self.meanAveragePrecision50to95 = meanAveragePrecision50to95
            self.meanAveragePrecision50 = meanAveragePrecision50
        }
    }

    /// SHA-256 of the model's files (an IR's .xml, then its .bin).
    public var modelSHA256: String
    public var modelFile: String
    public var cpuModelName: String
    /// The bf16 instructions the check ran on (`CPUCapabilities.nativeBF16`); nil without any.
    public var bf16Instructions: String?
    public var openVINOVersion: String
    public var dataset: String
    /// The detector input shape the check ran at ("rectangular-padded", "square", …): accuracy
    /// in bf16 depends on it, so a check counts only for the shape it measured.
    public var inputShape: String
    public var imageCount: Int
    public var f32: Accuracy
    public var bf16: Accuracy
    /// What OpenVINO reported the bf16 run compiled in (INFERENCE_PRECISION_HINT read back): a
    /// check whose "bf16" run was not bf16 measured nothing.
    public var bf16CompiledAs: String?
    public var measuredAt: Date

    public init(modelSHA256: String, modelFile: String, cpu: CPUCapabilities, openVINOVersion: String, dataset: String,
                inputShape: String, imageCount: Int, f32: Accuracy, bf16: Accuracy, bf16CompiledAs: String?, measuredAt: Date) {
        self.modelSHA256 = modelSHA256
        self.modelFile = modelFile
        cpuModelName = cpu.modelName
        bf16Instructions = cpu.nativeBF16
        self.openVINOVersion = openVINOVersion
        self.dataset = dataset
        self.inputShape = inputShape
        self.imageCount = imageCount
        self.f32 = f32
        self.bf16 = bf16
        self.bf16CompiledAs = bf16CompiledAs
        // Stored as ISO 8601, to the second: kept to the second here too, so a record read back equals the one saved.
        self.measuredAt = Date(timeIntervalSince1970: measuredAt.timeIntervalSince1970.rounded(.down))
    }

    /// How many mAP points bf16 loses against f32: the larger loss of mAP50-95 and mAP50
    /// (negative when bf16 scored higher on both).
    public var bf16LossPoints: Double {
        max(f32.meanAveragePrecision50to95 - bf16.meanAveragePrecision50to95,
            f32.meanAveragePrecision50 - bf16.meanAveragePrecision50) * 100
    }
}

/// Where precision checks are kept: one JSON file per model content, CPU and input shape, in the folder of
/// OpenVINO's compiled-model cache (`~/.cache/assistivekit/openvino/precision-checks`).
public struct PrecisionCheckStore: Sendable {
    public var folder: URL

    public init(folder: URL = UserDirectories.cache().appendingPathComponent("openvino/precision-checks")) {
        self.folder = folder
    }

    /// The file for a model's content on a CPU at an input shape: the digest's start, the CPU and
    /// the shape, in safe characters.
    public func fileURL(modelSHA256: String, cpu: CPUCapabilities, inputShape: String) -> URL {
        fileURL(modelSHA256: modelSHA256, cpuModelName: cpu.modelName, bf16Instructions: cpu.nativeBF16, inputShape: inputShape)
    }

    private func fileURL(modelSHA256: String, cpuModelName: String, bf16Instructions: String?, inputShape: String) -> URL {
        let key = "\(cpuModelName)-\(bf16Instructions ?? "no-bf16")-\(inputShape)"
            .map { $0.isLetter || $0.isNumber ? String($0).lowercased() : "-" }.joined()
        return folder.appendingPathComponent("\(modelSHA256.prefix(16))-\(key).json")
    }

    /// The check for this model content, CPU and input shape, or nil when there is none (or it is
    /// unreadable, or was made for another model, CPU or shape: a check never stands in for another).
    public func record(modelSHA256: String, cpu: CPUCapabilities, inputShape: String) -> PrecisionCheckRecord? {
        guard let data = try? Data(contentsOf: fileURL(modelSHA256: modelSHA256, cpu: cpu, inputShape: inputShape)),
              let record = try? Self.decoder.decode(PrecisionCheckRecord.self, from: data) else { return nil }
        guard record.modelSHA256 == modelSHA256, record.cpuModelName == cpu.modelName,
              record.bf16Instructions == cpu.nativeBF16, record.inputShape == inputShape else { return nil }
        return record
    }

    /// Saves `record`, replacing the one for the same model content, CPU and input shape.
    public func save(_ record: PrecisionCheckRecord) throws {
        try UserDirectories.ensureExists(folder)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        try PrivateFile.write(try encoder.encode(record), to: fileURL(modelSHA256: record.modelSHA256, cpuModelName: record.cpuModelName,
                                                                            bf16Instructions: record.bf16Instructions,
                                                                            inputShape: record.inputShape))
    }

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

/// The precision a model runs in, and why, in words a user can check (`--json`, the bench).
public struct PrecisionDecision: Sendable, Equatable, Encodable {
    /// What OpenVINO is told (INFERENCE_PRECISION_HINT).
    public var precision: InferencePrecision
    public var requested: PrecisionRequest
    public var reason: String
    /// What OpenVINO reported after compiling (the hint read back); nil before compiling.
    public var compiledAs: String?

    public init(precision: InferencePrecision, requested: PrecisionRequest, reason: String, compiledAs: String? = nil) {
        self.precision = precision
        self.requested = requested
        self.reason = reason
        self.compiledAs = compiledAs
    }
}

/// The one rule that turns a `PrecisionRequest` into the precision a model runs in.
public enum PrecisionRule {
    /// Issue 20, item 4: bf16 is used by itself only when it stays within half a mAP point of f32.
    public static let allowedLossPoints = 0.5
    /// A check on fewer images proves little: on two coco128 pictures bf16 lost 2.5 points, on all
    /// 128 of them 0.7. coco128's 128 pass; a handful of pictures does not.
    public static let minimumImageCount = 100

    /// `modelSHA256` and `record` are asked for only when they matter (auto on a CPU computing
    /// bf16 natively): hashing the model costs a read of it.
    public static func decide(_ request: PrecisionRequest, device: InferenceDevice, cpu: CPUCapabilities,
                              openVINOVersion: String, record: () -> PrecisionCheckRecord?) -> PrecisionDecision {
        if let fixed = request.fixed {
            return PrecisionDecision(precision: fixed, requested: request, reason: "\(fixed.rawValue) was asked for")
        }
        func f32(_ reason: String) -> PrecisionDecision { PrecisionDecision(precision: .f32, requested: .auto, reason: reason) }
        guard device == .cpu else { return f32("bf16 is only chosen automatically on the CPU") }
        guard let instructions = cpu.nativeBF16 else {
            return f32("this CPU has no native bf16 (no AVX-512 BF16 or AMX), so bf16 would not be faster")
        }
        guard let record = record() else {
            return f32("bf16 accuracy was not checked for this model at this input shape on this CPU (a precision check of assist eval detection on a labelled dataset decides it)")
        }
        guard record.openVINOVersion == openVINOVersion else {
            return f32("bf16 accuracy was checked with OpenVINO \(record.openVINOVersion), not this \(openVINOVersion); check it again")
        }
        guard record.imageCount >= minimumImageCount else {
            return f32("the bf16 check used \(record.imageCount) images; at least \(minimumImageCount) are needed")
        }
        guard record.bf16CompiledAs == InferencePrecision.bf16.rawValue else {
            return f32("the bf16 check did not run in bf16 (OpenVINO compiled it as \(record.bf16CompiledAs ?? "unknown"))")
        }
        let loss = record.bf16LossPoints
        let measured = String(format: "%@ %.2f mAP points against f32 on %@ (%d images, %@ input)", loss >= 0 ? "lost" : "gained",
                              abs(loss), URL(fileURLWithPath: record.dataset).lastPathComponent, record.imageCount, record.inputShape)
        // The tolerance only absorbs binary rounding (0.4931 − 0.4881 is not exactly 0.005).
        guard loss <= allowedLossPoints + 1e-9 else {
            return f32("bf16 \(measured), more than the \(allowedLossPoints) allowed")
        }
        return PrecisionDecision(precision: .bf16, requested: .auto,
                                 reason: "this CPU computes bf16 natively (\(instructions)) and bf16 \(measured), within \(allowedLossPoints)")
    }
}
