import AssistCore
import COpenVINO
import Foundation

// The one place that touches OpenVINO's C API (STYLE.md §2): every pointer is owned by a Swift
// type that frees it in deinit, every status code becomes an `InferenceError`, and what leaves
// this file is a value (shapes, element types, Swift arrays) or one of these owning classes.

/// Why OpenVINO could not do what was asked, told as one sentence.
public enum InferenceError: UserFacingError, Equatable {
    /// OpenVINO returned an error status; `operation` says what we asked for.
    case openVINO(operation: String, status: Int32, detail: String)
    case modelFileMissing(path: String)
    case modelUnreadable(path: String, detail: String)
    case deviceUnavailable(device: String, available: [String])
    case unsupportedElementType(port: String, typeCode: UInt32)
    case dynamicShape(port: String)
    /// The process is exiting: OpenVINO is no longer called (`OpenVINOUse`).
    case processEnding

    public var userMessage: String {
        switch self {
        case .openVINO(let operation, _, let detail):
            return "The inference engine failed to \(operation)\(detail.isEmpty ? "" : ": \(detail)")."
        case .modelFileMissing(let path):
            return "The model file \(path) does not exist."
        case .modelUnreadable(let path, let detail):
            return "The model file \(path) could not be read: \(detail.isEmpty ? "OpenVINO does not recognise it as an IR or ONNX model" : detail)."
        case .deviceUnavailable(let device, let available):
            return "The inference device \(device) is not available here; available: \(available.joined(separator: ", "))."
        case .unsupportedElementType(let port, let typeCode):
            return "The model's \(port) uses an element type (code \(typeCode)) that AssistiveKit does not handle; it expects 32-bit floats."
        case .dynamicShape(let port):
            return "The model's \(port) has a dynamic shape; export the model with a fixed input size."
        case .processEnding:
            return "The inference engine was not used because the program is ending."
        }
    }
}

/// Turns an OpenVINO status into a thrown error carrying OpenVINO's own last message.
@inline(__always)
func check(_ status: ov_status_e, _ operation: @autoclosure () -> String) throws(InferenceError) {
    guard status != OK else { return }
    let detail = ov_get_last_err_msg().map { String(cString: $0) } ?? ""
    let firstLine = detail.split(separator: "\n").first.map(String.init) ?? ""
    throw .openVINO(operation: operation(), status: status.rawValue, detail: firstLine)
}

/// The process's use of OpenVINO (`LibraryUse`): loading, reading, compiling and inference are
/// counted, so that `exit()` waits for one still going on in another thread (the sentence model
/// compiled beside the detector, an analysis the watchdog gave up on) before OpenVINO's statics
/// are destroyed; a later call throws `InferenceError.processEnding`, a later free is skipped.
enum OpenVINOUse {
    static let process = LibraryUse()

    /// Runs `body`, a call into OpenVINO, unless the process is exiting.
    static func call<T>(_ body: () throws(InferenceError) -> T) throws(InferenceError) -> T {
        try process.call(ifEnding: InferenceError.processEnding, body)
    }
}

/// Where inference runs. CPU is always there; the others only where OpenVINO finds the hardware.
public enum InferenceDevice: String, Sendable, CaseIterable, Codable {
    case cpu = "CPU"
    /// OpenVINO picks (and may start on CPU while a GPU compiles).
    case auto = "AUTO"
    case gpu = "GPU"
    case npu = "NPU"
}

/// The numeric precision the CPU plugin computes in. OpenVINO silently uses bf16 on CPUs that
/// support it unless told otherwise, which costs accuracy; we always say which one we want.
public enum InferencePrecision: String, Sendable, CaseIterable, Codable {
    case f32
    case bf16
    case f16
}

/// How a model is compiled: device, threads, precision, and the compiled-model cache.
public struct InferenceOptions: Sendable, Equatable {
    public var device: InferenceDevice
    /// 0 lets OpenVINO choose (all cores).
    public var threadCount: Int
    public var precision: InferencePrecision
    /// OpenVINO's compiled-model cache; the second start with the same model skips compilation.
    /// `nil` disables the cache.
    public var cacheDirectory: URL?

    public init(device: InferenceDevice = .cpu, threadCount: Int = 0, precision: InferencePrecision = .f32,
                cacheDirectory: URL? = UserDirectories.cache().appendingPathComponent("openvino")) {
        self.device = device
        self.threadCount = threadCount
        self.precision = precision
        self.cacheDirectory = cacheDirectory
    }
}

/// A tensor's static shape and element type, as a value.
public struct TensorDescription: Sendable, Equatable, CustomStringConvertible {
    public var dimensions: [Int]
    public var isFloat32: Bool
    public var elementCount: Int { dimensions.reduce(1, *) }
    public var description: String { "[" + dimensions.map(String.init).joined(separator: ",") + "]" }
}

/// The OpenVINO runtime: reads models and compiles them for a device.
public final class InferenceCore: @unchecked Sendable {
    // ov_core_t is documented as thread-safe; the handle itself is never mutated after init.
    let handle: OpaquePointer

    public init() throws(InferenceError) {
        var core: OpaquePointer?
        try OpenVINOUse.call { () throws(InferenceError) in try check(ov_core_create(&core), "start") }
        guard let core else { throw .openVINO(operation: "start", status: -1, detail: "no core returned") }
        handle = core
        OpenVINOUse.process.closeAtExit()
    }

    deinit { OpenVINOUse.process.release { ov_core_free(handle) } }

    /// The devices OpenVINO can use on this machine, e.g. ["CPU"].
    public func availableDevices() throws(InferenceError) -> [String] {
        var devices = ov_available_devices_t()
        try check(ov_core_get_available_devices(handle, &devices), "list devices")
        defer { ov_available_devices_free(&devices) }
        return (0..<devices.size).compactMap { devices.devices[$0].map { String(cString: $0) } }
    }

    /// The OpenVINO build version, e.g. "2026.4.1-…".
    public static func version() -> String {
        var version = ov_version_t()
        guard ov_get_openvino_version(&version) == OK else { return "unknown" }
        defer { ov_version_free(&version) }
        return version.buildNumber.map { String(cString: $0) } ?? "unknown"
    }

    /// Reads an OpenVINO IR (`.xml` with its `.bin` beside it) or an ONNX file.
    public func readModel(at url: URL) throws(InferenceError) -> InferenceModel {
        guard FileManager.default.fileExists(atPath: url.path) else { throw .modelFileMissing(path: url.path) }
        // Check the format ourselves first: on a damaged file OpenVINO tries every frontend it has,
        // and some (TensorFlow's) write their own complaints to stderr before it gives up.
        if let problem = ModelFileCheck.problem(with: url) { throw .modelUnreadable(path: url.path, detail: problem) }
        var model: OpaquePointer?
        let status = try OpenVINOUse.call { () throws(InferenceError) in ov_core_read_model(handle, url.path, nil, &model) }
        guard status == OK, let model else {
            let detail = ov_get_last_err_msg().map { String(cString: $0) } ?? ""
            throw .modelUnreadable(path: url.path, detail: Self.shortReason(detail))
        }
        return InferenceModel(handle: model)
    }

    /// Reads an OpenVINO IR given as text and weights in memory (an IR rewritten before reading,
    /// e.g. for a new input size); `name` is what errors call it.
    public func readModel(irText: String, weights: [UInt8], name: String) throws(InferenceError) -> InferenceModel {
        var shape = ov_shape_t()
        let dims = [Int64(weights.count)]
        try check(ov_shape_create(1, dims, &shape), "describe the weights of \(name)")
        defer { ov_shape_free(&shape) }
        // OpenVINO allocates the tensor; the model keeps it (see `InferenceModel.weights`).
        var tensor: OpaquePointer?
        try check(ov_tensor_create(U8, shape, &tensor), "hold the weights of \(name)")
        guard let tensor else { throw .openVINO(operation: "hold the weights of \(name)", status: -1, detail: "") }
        var data: UnsafeMutableRawPointer?
        let reached = ov_tensor_data(tensor, &data)
        guard reached == OK, let data else {
            ov_tensor_free(tensor)
            throw .openVINO(operation: "reach the weights of \(name)", status: reached.rawValue, detail: "")
        }
        weights.withUnsafeBytes { if let base = $0.baseAddress { data.copyMemory(from: base, byteCount: $0.count) } }
        var model: OpaquePointer?
        let utf8 = Array(irText.utf8)
        let status = try OpenVINOUse.call { () throws(InferenceError) in
            utf8.withUnsafeBufferPointer { text in
                text.withMemoryRebound(to: CChar.self) { ov_core_read_model_from_memory_buffer(handle, $0.baseAddress, $0.count, tensor, &model) }
            }
        }
        guard status == OK, let model else {
            let detail = ov_get_last_err_msg().map { String(cString: $0) } ?? ""
            ov_tensor_free(tensor)
            throw .modelUnreadable(path: name, detail: Self.shortReason(detail))
        }
        return InferenceModel(handle: model, weights: tensor)
    }

    /// Compiles a model for the device in `options`, ready to create inference requests.
    public func compile(_ model: InferenceModel, options: InferenceOptions) throws(InferenceError) -> CompiledModel {
        if options.device != .cpu && options.device != .auto {
            let available = try availableDevices()
            if !available.contains(where: { $0.hasPrefix(options.device.rawValue) }) {
                throw .deviceUnavailable(device: options.device.rawValue, available: available)
            }
        }
        if let cache = options.cacheDirectory { try? UserDirectories.ensureExists(cache) }
        var properties: [(String, String)] = [
            ("PERFORMANCE_HINT", "LATENCY"),
            ("INFERENCE_PRECISION_HINT", options.precision.rawValue),
        ]
        if options.threadCount > 0 { properties.append(("INFERENCE_NUM_THREADS", String(options.threadCount))) }
        if let cache = options.cacheDirectory { properties.append(("CACHE_DIR", cache.path)) }
        if options.device == .auto {
            // AUTO rejects CPU-only keys at the top level; it passes hints on to the device it picks.
            properties.removeAll { $0.0 == "INFERENCE_NUM_THREADS" }
        }

        // ov_property_t holds borrowed C strings: keep them alive for the duration of the call.
        let cStrings = properties.flatMap { [strdup($0.0), strdup($0.1)] }
        defer { cStrings.forEach { free($0) } }
        var cProperties = stride(from: 0, to: cStrings.count, by: 2).map {
            ov_property_t(key: UnsafePointer(cStrings[$0]), value: UnsafeRawPointer(cStrings[$0 + 1]))
        }
        var compiled: OpaquePointer?
        let count = cProperties.count
        try OpenVINOUse.call { () throws(InferenceError) in
            try cProperties.withUnsafeMutableBufferPointer { (buffer) throws(InferenceError) in
                try check(ov_core_compile_model_props(handle, model.handle, options.device.rawValue, count,
                                                      buffer.baseAddress, &compiled),
                          "compile the model for \(options.device.rawValue)")
            }
        }
        // The device's plugin made its statics while compiling: exit waits for calls before them.
        OpenVINOUse.process.closeAtExit()
        guard let compiled else { throw .openVINO(operation: "compile the model", status: -1, detail: "") }
        // Only a model whose weights were read from memory must outlive what is compiled from it;
        // one read from a file is dropped, so its weights are not held twice (a 63 MB voice).
        return CompiledModel(handle: compiled, source: model.weights == nil ? nil : model)
    }

    static func shortReason(_ detail: String) -> String {
        // OpenVINO's messages carry source paths and stack-like context; the first meaningful line is enough.
        let lines = detail.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        return lines.first { !$0.isEmpty && !$0.hasPrefix("Exception from") && !$0.hasPrefix("Check") } ?? lines.first ?? ""
    }
}

/// A model read from disk, before compilation. Inspect its ports here.
public final class InferenceModel: @unchecked Sendable {
    let handle: OpaquePointer
    /// Weights read from memory: the model's constants may point into this tensor, so it lives
    /// as long as the model.
    fileprivate let weights: OpaquePointer?
    init(handle: OpaquePointer, weights: OpaquePointer? = nil) {
        self.handle = handle
        self.weights = weights
    }
    deinit {
        OpenVINOUse.process.release {
            ov_model_free(handle)
            if let weights { ov_tensor_free(weights) }
        }
    }

    public func inputCount() throws(InferenceError) -> Int {
        var count = 0
        try check(ov_model_inputs_size(handle, &count), "count the model's inputs")
        return count
    }

    public func outputCount() throws(InferenceError) -> Int {
        var count = 0
        try check(ov_model_outputs_size(handle, &count), "count the model's outputs")
        return count
    }

    /// Inputs and outputs are addressed by index: their names differ between exports.
    public func input(at index: Int) throws(InferenceError) -> TensorDescription {
        var port: OpaquePointer?
        try check(ov_model_const_input_by_index(handle, index, &port), "find input \(index)")
        defer { ov_output_const_port_free(port) }
        return try describe(port, name: "input \(index)")
    }

    public func output(at index: Int) throws(InferenceError) -> TensorDescription {
        var port: OpaquePointer?
        try check(ov_model_const_output_by_index(handle, index, &port), "find output \(index)")
        defer { ov_output_const_port_free(port) }
        return try describe(port, name: "output \(index)")
    }

    /// Gives input 0 a new static shape, e.g. [1, 3, 480, 640] for a fully convolutional
    /// detector fed 4:3 frames. Changes this model in place: compile it again afterwards; models
    /// compiled before keep their own shape.
    public func reshapeInput(to dimensions: [Int]) throws(InferenceError) {
        var partial = ov_partial_shape_t()
        let dims = dimensions.map(Int64.init)
        try check(ov_partial_shape_create_static(Int64(dims.count), dims, &partial),
                  "describe the input shape \(dimensions)")
        defer { ov_partial_shape_free(&partial) }
        try check(ov_model_reshape_single_input(handle, partial), "reshape the model's input to \(dimensions)")
    }

    private func describe(_ port: OpaquePointer?, name: String) throws(InferenceError) -> TensorDescription {
        var partial = ov_partial_shape_t()
        try check(ov_port_get_partial_shape(port, &partial), "read the shape of \(name)")
        defer { ov_partial_shape_free(&partial) }
        var shape = ov_shape_t()
        guard ov_partial_shape_to_shape(partial, &shape) == OK else { throw .dynamicShape(port: name) }
        defer { ov_shape_free(&shape) }
        let dimensions = (0..<Int(shape.rank)).map { Int(shape.dims[$0]) }
        var elementType = ov_element_type_e(0)
        try check(ov_port_get_element_type(port, &elementType), "read the element type of \(name)")
        return TensorDescription(dimensions: dimensions, isFloat32: elementType == F32)
    }
}

/// A model compiled for one device; makes inference requests.
public final class CompiledModel: @unchecked Sendable {
    let handle: OpaquePointer
    /// Kept so weights read from memory outlive every compiled model that may share them.
    private let source: InferenceModel?
    init(handle: OpaquePointer, source: InferenceModel?) {
        self.handle = handle
        self.source = source
    }
    deinit { OpenVINOUse.process.release { ov_compiled_model_free(handle) } }

    public func makeRequest() throws(InferenceError) -> InferenceRequest {
        var request: OpaquePointer?
        try OpenVINOUse.call { () throws(InferenceError) in
            try check(ov_compiled_model_create_infer_request(handle, &request), "create an inference request")
        }
        guard let request else { throw .openVINO(operation: "create an inference request", status: -1, detail: "") }
        return try InferenceRequest(handle: request, owner: self)
    }

    /// A request for a model whose inputs are integer tensors of any shape (token ids), set by
    /// name on every run.
    public func makeTokenRequest() throws(InferenceError) -> TokenInferenceRequest {
        var request: OpaquePointer?
        try OpenVINOUse.call { () throws(InferenceError) in
            try check(ov_compiled_model_create_infer_request(handle, &request), "create an inference request")
        }
        guard let request else { throw .openVINO(operation: "create an inference request", status: -1, detail: "") }
        return TokenInferenceRequest(handle: request, owner: self)
    }

    /// A compiled-model property as text, e.g. "INFERENCE_PRECISION_HINT" → "f32".
    public func property(_ key: String) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard ov_compiled_model_get_property(handle, key, &value) == OK, let value else { return nil }
        defer { ov_free(value) }
        return String(cString: value)
    }
}

/// One inference request: write the input tensor in place, run, read the output in place.
///
/// Not thread-safe (an OpenVINO request is used by one thread at a time); the detector owns one.
public final class InferenceRequest {
    let handle: OpaquePointer
    private let owner: CompiledModel   // the request must not outlive its compiled model
    private let inputTensor: OpaquePointer
    public let inputDescription: TensorDescription

    init(handle: OpaquePointer, owner: CompiledModel) throws(InferenceError) {
        self.handle = handle
        self.owner = owner
        var tensor: OpaquePointer?
        let status = ov_infer_request_get_input_tensor_by_index(handle, 0, &tensor)
        guard status == OK, let tensor else {
            ov_infer_request_free(handle)
            try check(status, "find the input tensor")
            throw .openVINO(operation: "find the input tensor", status: -1, detail: "")
        }
        inputTensor = tensor
        do {
            inputDescription = try Self.describe(tensor, name: "input 0")
        } catch {
            ov_tensor_free(tensor)
            ov_infer_request_free(handle)
            throw error
        }
        guard inputDescription.isFloat32 else {
            ov_tensor_free(tensor)
            ov_infer_request_free(handle)
            throw .unsupportedElementType(port: "input 0", typeCode: 0)
        }
    }

    deinit {
        OpenVINOUse.process.release {
            ov_tensor_free(inputTensor)
            ov_infer_request_free(handle)
        }
    }

    /// Gives `body` the input tensor's own memory to fill (no copy).
    public func withInput<R>(_ body: (UnsafeMutableBufferPointer<Float>) throws -> R) throws -> R {
        var data: UnsafeMutableRawPointer?
        try check(ov_tensor_data(inputTensor, &data), "reach the input tensor's memory")
        guard let data else { throw InferenceError.openVINO(operation: "reach the input tensor", status: -1, detail: "") }
        let floats = data.bindMemory(to: Float.self, capacity: inputDescription.elementCount)
        return try body(UnsafeMutableBufferPointer(start: floats, count: inputDescription.elementCount))
    }

    /// Runs inference synchronously.
    public func infer() throws(InferenceError) {
        try OpenVINOUse.call { () throws(InferenceError) in try check(ov_infer_request_infer(handle), "run inference") }
    }

    /// Asks a running inference to stop (used by the watchdog); safe to call from another thread.
    public func cancel() {
        _ = ov_infer_request_cancel(handle)
    }

    /// Gives `body` output `index` in place, with its shape. The memory is valid only inside `body`.
    public func withOutput<R>(at index: Int,
                              _ body: (TensorDescription, UnsafeBufferPointer<Float>) throws -> R) throws -> R {
        try Self.withOutput(of: handle, at: index, body)
    }

    static func withOutput<R>(of handle: OpaquePointer, at index: Int,
                              _ body: (TensorDescription, UnsafeBufferPointer<Float>) throws -> R) throws -> R {
        var tensor: OpaquePointer?
        try check(ov_infer_request_get_output_tensor_by_index(handle, index, &tensor), "read output \(index)")
        guard let tensor else { throw InferenceError.openVINO(operation: "read output \(index)", status: -1, detail: "") }
        defer { ov_tensor_free(tensor) }
        let description = try Self.describe(tensor, name: "output \(index)")
        guard description.isFloat32 else { throw InferenceError.unsupportedElementType(port: "output \(index)", typeCode: 0) }
        var data: UnsafeMutableRawPointer?
        try check(ov_tensor_data(tensor, &data), "reach output \(index)'s memory")
        guard let data else { throw InferenceError.openVINO(operation: "reach output \(index)", status: -1, detail: "") }
        let floats = data.bindMemory(to: Float.self, capacity: description.elementCount)
        return try body(description, UnsafeBufferPointer(start: floats, count: description.elementCount))
    }

    static func describe(_ tensor: OpaquePointer, name: String) throws(InferenceError) -> TensorDescription {
        var shape = ov_shape_t()
        try check(ov_tensor_get_shape(tensor, &shape), "read the shape of \(name)")
        defer { ov_shape_free(&shape) }
        var elementType = ov_element_type_e(0)
        try check(ov_tensor_get_element_type(tensor, &elementType), "read the element type of \(name)")
        return TensorDescription(dimensions: (0..<Int(shape.rank)).map { Int(shape.dims[$0]) },
                                 isFloat32: elementType == F32)
    }
}

/// One inference request for a model fed tensors whose shape changes from run to run (a
/// sentence's token ids, a voice's phoneme ids): each run sets every input by name, with its own shape.
///
/// Not thread-safe (an OpenVINO request is used by one thread at a time).
public final class TokenInferenceRequest {
    let handle: OpaquePointer
    private let owner: CompiledModel   // the request must not outlive its compiled model

    init(handle: OpaquePointer, owner: CompiledModel) {
        self.handle = handle
        self.owner = owner
    }

    deinit { OpenVINOUse.process.release { ov_infer_request_free(handle) } }

    /// One named input: its shape and its values in row-major order: 64-bit integers (token ids),
    /// or 32-bit floats for a model's scalar controls (a voice's noise and length scales).
    public struct Input {
        public var name: String
        public var dimensions: [Int]
        public var values: [Int64]
        public var floats: [Float]?

        public init(name: String, dimensions: [Int], values: [Int64]) {
            self.name = name
            self.dimensions = dimensions
            self.values = values
        }

        public init(name: String, dimensions: [Int], floats: [Float]) {
            self.name = name
            self.dimensions = dimensions
            self.values = []
            self.floats = floats
        }

        var count: Int { floats?.count ?? values.count }
    }

    /// Sets every input and runs inference synchronously.
    public func infer(_ inputs: [Input]) throws(InferenceError) {
        for input in inputs {
            guard input.dimensions.reduce(1, *) == input.count else {
                throw .openVINO(operation: "set input \(input.name)", status: -1,
                                detail: "\(input.count) values do not fill the shape \(input.dimensions)")
            }
            var shape = ov_shape_t()
            let dims = input.dimensions.map(Int64.init)
            try check(ov_shape_create(Int64(dims.count), dims, &shape), "describe input \(input.name)")
            defer { ov_shape_free(&shape) }
            var tensor: OpaquePointer?
            try check(ov_tensor_create(input.floats == nil ? I64 : F32, shape, &tensor), "create input \(input.name)")
            guard let tensor else { throw .openVINO(operation: "create input \(input.name)", status: -1, detail: "") }
            defer { ov_tensor_free(tensor) }
            var data: UnsafeMutableRawPointer?
            try check(ov_tensor_data(tensor, &data), "reach input \(input.name)'s memory")
            guard let data else { throw .openVINO(operation: "reach input \(input.name)", status: -1, detail: "") }
            if let floats = input.floats {
                floats.withUnsafeBytes { if let base = $0.baseAddress { data.copyMemory(from: base, byteCount: $0.count) } }
            } else {
                input.values.withUnsafeBytes { if let base = $0.baseAddress { data.copyMemory(from: base, byteCount: $0.count) } }
            }
            // The request keeps its own reference to the tensor, so freeing ours here is safe.
            try check(ov_infer_request_set_tensor(handle, input.name, tensor), "set input \(input.name)")
        }
        try OpenVINOUse.call { () throws(InferenceError) in try check(ov_infer_request_infer(handle), "run inference") }
    }

    /// Gives `body` output `index` in place, with its shape. The memory is valid only inside `body`.
    public func withOutput<R>(at index: Int,
                              _ body: (TensorDescription, UnsafeBufferPointer<Float>) throws -> R) throws -> R {
        try InferenceRequest.withOutput(of: handle, at: index, body)
    }
}

/// A cheap look at a model file before OpenVINO reads it: the right extension, and content that
/// starts like an OpenVINO IR (XML with a `<net>`) or an ONNX protobuf (a ModelProto with a graph).
enum ModelFileCheck {
    static let onnxGraphField = 7   // ModelProto.graph (onnx.proto)

    /// A short reason the file cannot be a model, or nil when it looks like one.
    static func problem(with url: URL) -> String? {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return "it cannot be opened" }
        defer { try? handle.close() }
        switch url.pathExtension.lowercased() {
        case "xml":
            let head = String(decoding: handle.readData(ofLength: 4096), as: UTF8.self)
            guard head.contains("<net") else { return "it is not an OpenVINO IR, as it has no <net> element" }
            let weights = url.deletingPathExtension().appendingPathExtension("bin")
            guard FileManager.default.fileExists(atPath: weights.path) else {
                return "its weights file \(weights.lastPathComponent) is missing"
            }
            return nil
        case "onnx":
            guard let data = try? handle.readToEnd(), !data.isEmpty else { return "it is empty" }
            let hasGraph = data.withUnsafeBytes { raw -> Bool in
                var reader = ProtobufReader(bytes: raw)
                var sawGraph = false
                while let (field, wireType) = reader.nextKey() {
                    if field == onnxGraphField && wireType == 2 { sawGraph = true }
                    guard field > 0, reader.skip(wireType: wireType) else { return false }
                }
                return sawGraph && reader.offset == raw.count
            }
            return hasGraph ? nil : "it is not an ONNX model, as no graph was found in it"
        default:
            return "model files must be OpenVINO IR (.xml with its .bin) or ONNX (.onnx)"
        }
    }
}
