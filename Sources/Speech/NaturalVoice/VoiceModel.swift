import AssistCore
import Foundation
import Inference
import ONNXRuntime

/// Which inference library runs the natural voice's model (the same `.onnx` file either way).
///
/// ONNX Runtime is the default because its memory levels off and OpenVINO's does not: OpenVINO's
/// CPU plugin keeps what it prepared for every shape, and a VITS voice's audio has a new length
/// for nearly every sentence. `assist say` of 1, 10, 50 and 200 product sentences peaked at 512,
/// 823, 1 143 and 1 514 MB on OpenVINO and 220, 239, 272 and 331 MB on ONNX Runtime (the fast
/// voice: 102, 104, 114, 167 MB, the rest being the audio `say` holds), and ONNX Runtime made the
/// audio in half the time (BENCHMARKS.md, "Issue 37 (twenty-first session)"). With noise off,
/// both give the same audio to within 5·10⁻⁵ of full scale. OpenVINO stays selectable
/// (`ASSIST_NATURAL_VOICE_RUNTIME=openvino`) so that the two can be measured in one build.
///
/// Without its arena by default: each clause's buffers are then malloc's, and with large blocks
/// mapped separately (`FreedMemory.mapLargeBlocksSeparately`) they are given back after every
/// clause instead of being kept at the size of the longest clause so far. A 10-minute live
/// session then peaked at 398.9 MB (BENCHMARKS.md, "Issue 37 (twenty-third session)").
public enum NaturalVoiceRuntime: String, Sendable, CaseIterable {
    /// ONNX Runtime, its CPU arena on, its memory pattern off.
    case onnxRuntime = "onnxruntime"
    /// ONNX Runtime with neither its CPU arena nor its memory pattern: every buffer from malloc (the default).
    case onnxRuntimeWithoutArena = "onnxruntime-without-arena"
    /// OpenVINO's CPU plugin, f32 (the voice's first runtime).
    case openVINO = "openvino"

    /// The runtime used unless the environment names another.
    public static let standard = NaturalVoiceRuntime.onnxRuntimeWithoutArena

    /// The environment variable that names a runtime other than the default, for benchmarks.
    public static let environmentKey = "ASSIST_NATURAL_VOICE_RUNTIME"

    /// The runtime `$ASSIST_NATURAL_VOICE_RUNTIME` names, or the default when unset.
    public static func chosen(environment: [String: String] = ProcessInfo.processInfo.environment) throws(NaturalVoiceError) -> Self {
        guard let name = environment[environmentKey], !name.isEmpty else { return .standard }
        guard let runtime = Self(rawValue: name.lowercased()) else {
            throw .unknownRuntime(name: name, known: allCases.map(\.rawValue))
        }
        return runtime
    }
}

/// The VITS model loaded by one runtime: Piper's phoneme ids and scales in, audio out. One
/// inference at a time (the caller holds a lock); each runtime's C calls stay in its wrapper.
protocol VoiceModel: AnyObject {
    /// Runs the model and hands its audio (floats, about ±1) to `body`, valid only inside it.
    func speak(ids: [Int64], scales: [Float], _ body: (UnsafeBufferPointer<Float>) -> Void) throws
}

extension NaturalVoiceRuntime {
    func load(_ model: URL, threadCount: Int) throws -> any VoiceModel {
        switch self {
        case .onnxRuntime: return try ONNXRuntimeVoiceModel(model, threadCount: threadCount, memoryArena: true)
        case .onnxRuntimeWithoutArena: return try ONNXRuntimeVoiceModel(model, threadCount: threadCount, memoryArena: false)
        case .openVINO: return try OpenVINOVoiceModel(model, threadCount: threadCount)
        }
    }
}

/// Piper's VITS export: `input` [1, n] ids, `input_lengths` [1], `scales` [3] (noise, length,
/// noise_w); output 0 is [1, 1, 1, samples].
private enum PiperTensor {
    static let ids = "input", lengths = "input_lengths", scales = "scales", audio = "output"
}

final class ONNXRuntimeVoiceModel: VoiceModel {
    private let session: ONNXSession

    init(_ model: URL, threadCount: Int, memoryArena: Bool) throws(ONNXRuntimeError) {
        // The memory pattern plans each run's buffers for its input shape and keeps the plan; a
        // voice's shapes change with every clause, so it only grows (in Python, same library: 240 MB
        // after 200 clauses with it, 189 MB without). The arena is off by default
        // (`NaturalVoiceRuntime.standard`): it kept the longest clause's buffers, 4 + 8 + 16 MB in a
        // live session, and grew with a longer one; without it each run allocates afresh.
        session = try ONNXSession(modelAt: model, options: ONNXSessionOptions(threadCount: threadCount, memoryArena: memoryArena,
                                                                                memoryPattern: false))
    }

    func speak(ids: [Int64], scales: [Float], _ body: (UnsafeBufferPointer<Float>) -> Void) throws {
        let outputs = try session.run([PiperTensor.ids: try ONNXTensor(shape: [1, ids.count], int64s: ids),
                                       PiperTensor.lengths: try ONNXTensor(shape: [1], int64s: [Int64(ids.count)]),
                                       PiperTensor.scales: try ONNXTensor(shape: [scales.count], floats: scales)],
                                      outputs: [PiperTensor.audio])
        try outputs[0].withFloats(body)
    }
}

final class OpenVINOVoiceModel: VoiceModel {
    // `request` is for one thread at a time; `compiled` outlives it.
    private let compiled: CompiledModel
    private let request: TokenInferenceRequest

    init(_ model: URL, threadCount: Int) throws(InferenceError) {
        let core = try InferenceCore()
        let read = try core.readModel(at: model)
        // f32: the CPU plugin's default bf16 on these CPUs costs a VITS decoder audible noise.
        // Its per-shape cache (CPU_RUNTIME_CACHE_CAPACITY) is left at its default: a capacity of 0
        // or 32 bounded the memory but crashed OpenVINO 2026.4.1's CPU plugin in 3 of 6 benchmark
        // runs (BENCHMARKS.md, "Issue 37 (twentieth session)").
        compiled = try core.compile(read, options: InferenceOptions(threadCount: threadCount, precision: .f32))
        request = try compiled.makeTokenRequest()
    }

    func speak(ids: [Int64], scales: [Float], _ body: (UnsafeBufferPointer<Float>) -> Void) throws {
        try request.infer([
            TokenInferenceRequest.Input(name: PiperTensor.ids, dimensions: [1, ids.count], values: ids),
            TokenInferenceRequest.Input(name: PiperTensor.lengths, dimensions: [1], values: [Int64(ids.count)]),
            TokenInferenceRequest.Input(name: PiperTensor.scales, dimensions: [scales.count], floats: scales),
        ])
        try request.withOutput(at: 0) { _, all in body(all) }
    }
}
