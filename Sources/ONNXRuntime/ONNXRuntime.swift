import AssistCore
import CONNXRuntime
import Foundation
import Synchronization

// The one place that touches ONNX Runtime's C API (STYLE.md §2), as OpenVINO.swift is for
// OpenVINO: every pointer is owned by a Swift class that releases it in deinit, every OrtStatus
// becomes an `ONNXRuntimeError`, and what leaves this file is a value (shapes, Swift arrays) or
// one of these owning classes. The C API is a table of function pointers reached through
// OrtGetApiBase()->GetApi(ORT_API_VERSION): the headers (API 23) are older than the library
// (1.32), which serves every older table.
//
// Threads: an `ONNXSession` may be run from several threads at once (ONNX Runtime documents
// OrtSession::Run as thread-safe); an `ONNXTensor` belongs to one thread at a time (it is not
// Sendable). Every call into the library goes through `RuntimeUse`, which keeps the process's
// exit from tearing ONNX Runtime down under a call still running on another thread.

/// Why ONNX Runtime could not do what was asked, told as one sentence.
public enum ONNXRuntimeError: UserFacingError, Equatable {
    /// The library does not serve the API version the headers describe.
    case apiUnavailable(version: UInt32)
    /// ONNX Runtime returned an error status; `operation` says what we asked for.
    case failed(operation: String, code: UInt32, detail: String)
    case modelFileMissing(path: String)
    case modelUnreadable(path: String, detail: String)
    case unknownTensor(name: String, model: String)
    case unexpectedElementType(tensor: String, expected: String)
    /// An ORT-format model could not be saved as an `.onnx` file (`ONNXModelExport`).
    case modelNotConverted(path: String, detail: String)
    /// The process is exiting: ONNX Runtime is no longer called (`RuntimeUse`).
    case processEnding

    public var userMessage: String {
        switch self {
        case .apiUnavailable(let version):
            return "The ONNX Runtime library found does not offer its C API version \(version); run scripts/setup to install the pinned one."
        case .failed(let operation, _, let detail):
            return "ONNX Runtime failed to \(operation)\(detail.isEmpty ? "" : ": \(detail)")."
        case .modelFileMissing(let path):
            return "The model file \(path) does not exist; run scripts/setup to install the speech models."
        case .modelUnreadable(let path, let detail):
            return "The model file \(path) is damaged or not an ONNX Runtime model (\(detail)); run scripts/setup to install it again."
        case .unknownTensor(let name, let model):
            return "The model \(model) has no tensor named \(name); it is not the model this version of AssistiveKit expects."
        case .unexpectedElementType(let tensor, let expected):
            return "The model's tensor \(tensor) does not hold \(expected) as expected."
        case .modelNotConverted(let path, let detail):
            return "The model \(path) could not be prepared for fast use (\(detail)); check that its folder or the temporary folder can be written to."
        case .processEnding:
            return "ONNX Runtime was not used because the program is ending."
        }
    }
}

/// The C API's function table, fetched once. The table is immutable and lives as long as the
/// process, so sharing its pointer between threads is safe.
nonisolated(unsafe) private let ortAPI: Result<UnsafePointer<OrtApi>, ONNXRuntimeError> = {
    guard let base = OrtGetApiBase(), let getAPI = base.pointee.GetApi,
          let table = getAPI(UInt32(ORT_API_VERSION)) else { return .failure(.apiUnavailable(version: UInt32(ORT_API_VERSION))) }
    return .success(table)
}()

@inline(__always)
private func api() throws(ONNXRuntimeError) -> OrtApi { try ortAPI.get().pointee }

/// Turns a returned OrtStatus (nil is success) into a thrown error, releasing the status.
private func check(_ status: OpaquePointer?, _ operation: @autoclosure () -> String) throws(ONNXRuntimeError) {
    guard let status else { return }
    let table = try api()
    let detail = table.GetErrorMessage(status).map { String(cString: $0) } ?? ""
    let code = table.GetErrorCode(status).rawValue
    table.ReleaseStatus(status)
    throw .failed(operation: operation(), code: code, detail: detail.split(separator: "\n").first.map(String.init) ?? "")
}

/// The process's use of ONNX Runtime (`LibraryUse`): every call into the library is counted, and
/// `exit()` waits for the calls in flight before ONNX Runtime's statics are destroyed; a later run
/// throws `ONNXRuntimeError.processEnding` and a later release is skipped (issue 35;
/// `RuntimeLifetimeTests`).
enum RuntimeUse {
    static let process = LibraryUse()

    static func closeAtExit() { process.closeAtExit() }
}

extension LibraryUse {
    /// Runs `body`, a call into ONNX Runtime, unless the process is exiting.
    func call<T>(_ body: () throws(ONNXRuntimeError) -> T) throws(ONNXRuntimeError) -> T {
        try call(ifEnding: ONNXRuntimeError.processEnding, body)
    }
}

/// The element types the speech models use.
public enum TensorElementType: Sendable, Equatable {
    case float32, int64, bool

    var onnx: ONNXTensorElementDataType {
        switch self {
        case .float32: return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT
        case .int64: return ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64
        case .bool: return ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL
        }
    }

    var byteSize: Int {
        switch self {
        case .float32: return 4
        case .int64: return 8
        case .bool: return 1
        }
    }
}

/// The process's ONNX Runtime environment (its logging and thread pools' owner). ONNX Runtime
/// wants one per process; every session shares it.
final class ONNXEnvironment: @unchecked Sendable {
    // Never mutated after init; OrtEnv is documented as safe to share between threads.
    let handle: OpaquePointer
    let allocator: UnsafeMutablePointer<OrtAllocator>
    let cpuMemory: OpaquePointer

    static let shared: Result<ONNXEnvironment, ONNXRuntimeError> = Result { () throws(ONNXRuntimeError) in
        let environment = try RuntimeUse.process.call { () throws(ONNXRuntimeError) in try ONNXEnvironment() }
        RuntimeUse.closeAtExit()
        return environment
    }

    private init() throws(ONNXRuntimeError) {
        let table = try api()
        var env: OpaquePointer?
        // Warnings only: ONNX Runtime's informational lines would reach the user's terminal.
        try check(table.CreateEnv(ORT_LOGGING_LEVEL_ERROR, "assist", &env), "start")
        guard let env else { throw .failed(operation: "start", code: 0, detail: "no environment returned") }
        var allocator: UnsafeMutablePointer<OrtAllocator>?
        var memory: OpaquePointer?
        do {
            try check(table.GetAllocatorWithDefaultOptions(&allocator), "reach its allocator")
            try check(table.CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, &memory), "describe CPU memory")
        } catch {
            table.ReleaseEnv(env)
            throw error
        }
        guard let allocator, let memory else {
            table.ReleaseEnv(env)
            throw .failed(operation: "reach its allocator", code: 0, detail: "")
        }
        handle = env
        self.allocator = allocator
        cpuMemory = memory
    }

    deinit {
        guard let table = try? api() else { return }
        RuntimeUse.process.release {
            table.ReleaseMemoryInfo(cpuMemory)
            table.ReleaseEnv(handle)
        }
    }
}

/// A tensor held by ONNX Runtime: made from Swift values, or returned by a run (and then fed
/// back as an input without copying, as a decoder's key/value cache is).
///
/// Owns its OrtValue, the only reference to it, and releases it in deinit. Its elements live in
/// memory ONNX Runtime allocated for the value (`CreateTensorAsOrtValue`, or a run's output),
/// never in a Swift buffer, so nothing the value points at can go away before it. A run holds
/// its input tensors alive until ONNX Runtime has returned. Not Sendable: one thread at a time.
public final class ONNXTensor {
    let handle: OpaquePointer
    public let shape: [Int]
    public let elementType: TensorElementType

    init(handle: OpaquePointer, shape: [Int], elementType: TensorElementType) {
        self.handle = handle
        self.shape = shape
        self.elementType = elementType
    }

    /// A tensor of `shape`, its elements copied from `values` (row-major); `values` must hold
    /// exactly the shape's element count (any dimension may be 0: an empty tensor).
    public convenience init(shape: [Int], floats values: [Float]) throws(ONNXRuntimeError) {
        try self.init(shape: shape, type: .float32, count: values.count)
        let data = try mutableData()
        values.withUnsafeBytes { fill(data, from: $0) }
    }

    public convenience init(shape: [Int], int64s values: [Int64]) throws(ONNXRuntimeError) {
        try self.init(shape: shape, type: .int64, count: values.count)
        let data = try mutableData()
        values.withUnsafeBytes { fill(data, from: $0) }
    }

    public convenience init(shape: [Int], bools values: [Bool]) throws(ONNXRuntimeError) {
        try self.init(shape: shape, type: .bool, count: values.count)
        let data = try mutableData()
        // ONNX booleans are one byte each, 0 or 1.
        values.map { UInt8($0 ? 1 : 0) }.withUnsafeBytes { fill(data, from: $0) }
    }

    /// An uninitialised tensor of `shape`, allocated by ONNX Runtime.
    private convenience init(shape: [Int], type: TensorElementType, count: Int) throws(ONNXRuntimeError) {
        precondition(shape.reduce(1, *) == count, "a tensor's values must fill its shape")
        let environment = try ONNXEnvironment.shared.get()
        let table = try api()
        let dims = shape.map(Int64.init)
        var value: OpaquePointer?
        try RuntimeUse.process.call { () throws(ONNXRuntimeError) in
            try check(table.CreateTensorAsOrtValue(environment.allocator, dims, dims.count, type.onnx, &value), "make a tensor")
        }
        guard let value else { throw .failed(operation: "make a tensor", code: 0, detail: "") }
        self.init(handle: value, shape: shape, elementType: type)
    }

    /// The tensor's storage (nil for an empty tensor).
    private func mutableData() throws(ONNXRuntimeError) -> UnsafeMutableRawPointer? {
        guard elementCount > 0 else { return nil }
        var data: UnsafeMutableRawPointer?
        let table = try api()
        try RuntimeUse.process.call { () throws(ONNXRuntimeError) in try check(table.GetTensorMutableData(handle, &data), "fill a tensor") }
        return data
    }

    private func fill(_ data: UnsafeMutableRawPointer?, from bytes: UnsafeRawBufferPointer) {
        guard let data, let source = bytes.baseAddress else { return }
        data.copyMemory(from: source, byteCount: bytes.count)
    }

    public var elementCount: Int { shape.reduce(1, *) }

    /// The elements of a float tensor, copied out.
    public func floats() throws(ONNXRuntimeError) -> [Float] {
        try withFloats { Array($0) }
    }

    /// Reads a float tensor's elements in place (the buffer is valid only inside `body`).
    public func withFloats<T>(_ body: (UnsafeBufferPointer<Float>) -> T) throws(ONNXRuntimeError) -> T {
        guard elementType == .float32 else { throw .unexpectedElementType(tensor: "output", expected: "32-bit floats") }
        guard elementCount > 0 else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        var data: UnsafeMutableRawPointer?
        let table = try api()
        try RuntimeUse.process.call { () throws(ONNXRuntimeError) in try check(table.GetTensorMutableData(handle, &data), "read a tensor") }
        guard let data else { throw .failed(operation: "read a tensor", code: 0, detail: "") }
        return body(UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: elementCount))
    }

    deinit {
        guard let table = try? api() else { return }
        RuntimeUse.process.release { table.ReleaseValue(handle) }
    }
}

/// How a session runs: its thread count (0 lets ONNX Runtime use every core), and how it keeps
/// memory between runs.
public struct ONNXSessionOptions: Sendable, Equatable {
    public var threadCount: Int
    /// ONNX Runtime's CPU arena: buffers freed by a run are kept for the next (the C API's
    /// `DisableCpuMemArena` when false).
    public var memoryArena: Bool
    /// The memory pattern: each run's buffers planned by its input shapes, the plan kept per
    /// shape (`DisableMemPattern` when false). A model whose shapes change with every run (a
    /// voice: one per sentence's length) gains nothing from it and keeps a plan for each.
    public var memoryPattern: Bool

    /// ONNX Runtime's graph optimisations when loading (`all` unless told otherwise).
    public var optimization: GraphOptimization
    /// Where to write the model as loaded (`SetOptimizedModelFilePath`): in ONNX Runtime's own
    /// format when the name ends in `.ort`, else as an `.onnx` file.
    public var saveLoadedModelTo: URL?
    /// ONNX Runtime's weight prepacking: each constant matrix of a product also kept in the
    /// layout its kernel reads fastest. False (`session.disable_prepacking`) keeps one copy: for
    /// a model whose weights are already unpacked floats (`ONNXModelExport.foldedCopy`) that
    /// copy is most of its memory, and a one-token decoder step gains little from the layout.
    public var weightPrepacking: Bool
    /// An ORT-format file used where it lies: mapped read-only into memory, its weights read
    /// from the mapping (`session.use_ort_model_bytes_directly` and `…_for_initializers`), not
    /// read into a buffer and copied out of it. Loading then holds one copy, not two, and the
    /// weights are pages of the file, which the system can drop and read again when memory is short.
    public var mapModelFile: Bool

    public init(threadCount: Int = 0, memoryArena: Bool = true, memoryPattern: Bool = true,
                optimization: GraphOptimization = .all, saveLoadedModelTo: URL? = nil, weightPrepacking: Bool = true,
                mapModelFile: Bool = false) {
        self.mapModelFile = mapModelFile
        self.threadCount = threadCount
        self.memoryArena = memoryArena
        self.memoryPattern = memoryPattern
        self.optimization = optimization
        self.saveLoadedModelTo = saveLoadedModelTo
        self.weightPrepacking = weightPrepacking
    }
}

/// How much ONNX Runtime rewrites a model's graph when it loads it.
public enum GraphOptimization: Sendable, Equatable {
    /// Nothing: the graph run as read (`ONNXModelExport` saving a model as it was read; a saved
    /// model whose folding is done).
    case off
    /// Constant folding and the removal of redundant nodes: the same result on every CPU, so a
    /// model saved after it may be loaded anywhere (`ONNXModelExport.foldedCopy`).
    case basic
    /// Every optimisation, some of them for this CPU's instructions (ONNX Runtime's default).
    case all
}

/// A model loaded by ONNX Runtime (an `.onnx` or `.ort` file), ready to run.
public final class ONNXSession: @unchecked Sendable {
    // Sendable: OrtSession::Run is documented as safe to call from several threads at once, and
    // the handle never changes. The tensors given to one run must not be used by another at the
    // same time (`ONNXTensor` is not Sendable).
    private let handle: OpaquePointer
    private let environment: ONNXEnvironment
    public let inputNames: [String]
    public let outputNames: [String]
    /// The file's name, for errors.
    public let modelName: String
    /// The model file's mapping, when the session reads it in place (`mapModelFile`).
    private let mapping: MappedModelFile?

    /// Runs taken so far, up to `runsBeforeLastExitHandler`: the first runs make statics of
    /// their own, after which `RuntimeUse.closeAtExit()` is registered again.
    private let earlyRuns = Atomic(0)
    private static let runsBeforeLastExitHandler = 2

    public init(modelAt url: URL, options: ONNXSessionOptions = ONNXSessionOptions()) throws(ONNXRuntimeError) {
        guard FileManager.default.fileExists(atPath: url.path) else { throw .modelFileMissing(path: url.path) }
        let environment = try ONNXEnvironment.shared.get()
        self.environment = environment
        let mapping = options.mapModelFile ? try MappedModelFile(url) : nil
        self.mapping = mapping
        (handle, inputNames, outputNames) = try RuntimeUse.process.call { () throws(ONNXRuntimeError) in
            try Self.load(url, mapping: mapping, options: options, environment: environment)
        }
        modelName = url.lastPathComponent
        RuntimeUse.closeAtExit()
    }

    /// The session and its input and output names.
    private static func load(_ url: URL, mapping: MappedModelFile?, options: ONNXSessionOptions,
                             environment: ONNXEnvironment) throws(ONNXRuntimeError) -> (OpaquePointer, [String], [String]) {
        let table = try api()
        var sessionOptions: OpaquePointer?
        try check(table.CreateSessionOptions(&sessionOptions), "prepare a session")
        guard let sessionOptions else { throw .failed(operation: "prepare a session", code: 0, detail: "") }
        defer { table.ReleaseSessionOptions(sessionOptions) }
        if options.threadCount > 0 {
            try check(table.SetIntraOpNumThreads(sessionOptions, Int32(options.threadCount)), "set its thread count")
            try check(table.SetInterOpNumThreads(sessionOptions, 1), "set its thread count")
        }
        if !options.memoryArena { try check(table.DisableCpuMemArena(sessionOptions), "turn off its memory arena") }
        if !options.memoryPattern { try check(table.DisableMemPattern(sessionOptions), "turn off its memory pattern") }
        switch options.optimization {
        case .off: try check(table.SetSessionGraphOptimizationLevel(sessionOptions, ORT_DISABLE_ALL), "turn off its graph optimisations")
        case .basic: try check(table.SetSessionGraphOptimizationLevel(sessionOptions, ORT_ENABLE_BASIC), "set its graph optimisations")
        case .all: break
        }
        if let saved = options.saveLoadedModelTo {
            try check(table.SetOptimizedModelFilePath(sessionOptions, saved.path), "name the file to save the model in")
            if saved.pathExtension == "ort" {
                try check(table.AddSessionConfigEntry(sessionOptions, "session.save_model_format", "ORT"), "save it in ONNX Runtime's format")
            }
        }
        if !options.weightPrepacking {
            try check(table.AddSessionConfigEntry(sessionOptions, "session.disable_prepacking", "1"), "turn off weight prepacking")
        }
        // Threads that spin waiting for work would cost a core while the listener waits for speech.
        try check(table.AddSessionConfigEntry(sessionOptions, "session.intra_op.allow_spinning", "0"), "turn off spinning")
        var session: OpaquePointer?
        let status: OpaquePointer?
        if let mapping {
            try check(table.AddSessionConfigEntry(sessionOptions, "session.use_ort_model_bytes_directly", "1"), "use the model file in place")
            try check(table.AddSessionConfigEntry(sessionOptions, "session.use_ort_model_bytes_for_initializers", "1"), "use the model file in place")
            status = table.CreateSessionFromArray(environment.handle, mapping.address, mapping.length, sessionOptions, &session)
        } else {
            status = table.CreateSession(environment.handle, url.path, sessionOptions, &session)
        }
        if let status {
            let detail = table.GetErrorMessage(status).map { String(cString: $0) } ?? ""
            table.ReleaseStatus(status)
            throw .modelUnreadable(path: url.path, detail: shortReason(detail))
        }
        guard let session else { throw .modelUnreadable(path: url.path, detail: "no session returned") }
        do {
            return (session, try names(session, table: table, environment: environment, input: true),
                    try names(session, table: table, environment: environment, input: false))
        } catch {
            table.ReleaseSession(session)
            throw error
        }
    }

    deinit {
        guard let table = try? api() else { return }
        // The mapping outlives the session that reads its weights; at exit neither is released.
        RuntimeUse.process.release {
            table.ReleaseSession(handle)
            mapping?.unmap()
        }
    }

    private static func names(_ session: OpaquePointer, table: OrtApi, environment: ONNXEnvironment,
                              input: Bool) throws(ONNXRuntimeError) -> [String] {
        var count = 0
        try check(input ? table.SessionGetInputCount(session, &count) : table.SessionGetOutputCount(session, &count), "list the model's tensors")
        var names: [String] = []
        for index in 0..<count {
            var name: UnsafeMutablePointer<CChar>?
            try check(input ? table.SessionGetInputName(session, index, environment.allocator, &name)
                            : table.SessionGetOutputName(session, index, environment.allocator, &name), "name the model's tensors")
            guard let name else { continue }
            names.append(String(cString: name))
            _ = table.AllocatorFree(environment.allocator, name).map { table.ReleaseStatus($0) }
        }
        return names
    }

    /// ONNX Runtime's message for a file it cannot load starts with the path and the status
    /// name; the reason is the part after the last ": ".
    /// A source location ("inference_session.cc:2238 operator() ") before the words is dropped,
    /// and the final full stop (the sentence around it has its own).
    static func shortReason(_ detail: String) -> String {
        let line = detail.split(separator: "\n").first.map(String.init) ?? ""
        var reason = line.components(separatedBy: " : ").last ?? line
        if let location = reason.range(of: #"^\S+\.(cc|h|cpp):\d+ \S+ "#, options: .regularExpression) {
            reason.removeSubrange(location)
        }
        while reason.hasSuffix(".") { reason.removeLast() }
        return reason.isEmpty ? "ONNX Runtime cannot load it" : String(reason.prefix(160))
    }

    /// Runs the model on `inputs` (by name; every input the model has) and returns the outputs
    /// named in `outputs`, in that order.
    public func run(_ inputs: [String: ONNXTensor], outputs: [String]) throws(ONNXRuntimeError) -> [ONNXTensor] {
        let table = try api()
        for name in inputs.keys where !inputNames.contains(name) { throw .unknownTensor(name: name, model: modelName) }
        for name in outputs where !outputNames.contains(name) { throw .unknownTensor(name: name, model: modelName) }
        let ordered = Array(inputs)
        let inputCNames = ordered.map { strdup($0.key) }
        let outputCNames = outputs.map { strdup($0) }
        defer { (inputCNames + outputCNames).forEach { free($0) } }
        let owned = try RuntimeUse.process.call { () throws(ONNXRuntimeError) -> [ONNXTensor] in
            // The input tensors (and so their OrtValues) stay alive until Run has returned.
            try withExtendedLifetime(ordered) { () throws(ONNXRuntimeError) -> [ONNXTensor] in
                let inputValues: [OpaquePointer?] = ordered.map { $0.value.handle }
                var outputValues = [OpaquePointer?](repeating: nil, count: outputs.count)
                let status = inputCNames.map { UnsafePointer($0) }.withUnsafeBufferPointer { inNames in
                    outputCNames.map { UnsafePointer($0) }.withUnsafeBufferPointer { outNames in
                        inputValues.withUnsafeBufferPointer { inValues in
                            outputValues.withUnsafeMutableBufferPointer { outValues in
                                table.Run(handle, nil, inNames.baseAddress, inValues.baseAddress, inValues.count,
                                          outNames.baseAddress, outNames.count, outValues.baseAddress)
                            }
                        }
                    }
                }
                // Each returned value is owned by exactly one tensor from here (released in its
                // deinit), so that nothing leaks when a later step throws.
                var owned: [ONNXTensor] = []
                var failure: ONNXRuntimeError?
                for value in outputValues {
                    guard let value else { continue }
                    do throws(ONNXRuntimeError) {
                        let (shape, type) = try Self.describe(value, table: table)
                        owned.append(ONNXTensor(handle: value, shape: shape, elementType: type))
                    } catch {
                        table.ReleaseValue(value)
                        failure = failure ?? error
                    }
                }
                try check(status, "run \(modelName)")
                if let failure { throw failure }
                return owned
            }
        }
        // The first runs make statics of their own (kernels' state, the If node's other branch):
        // the exit handler is registered again after them, so that it runs before those are destroyed.
        if earlyRuns.load(ordering: .relaxed) < Self.runsBeforeLastExitHandler,
           earlyRuns.add(1, ordering: .relaxed).newValue <= Self.runsBeforeLastExitHandler {
            RuntimeUse.closeAtExit()
        }
        guard owned.count == outputs.count else { throw .failed(operation: "run \(modelName)", code: 0, detail: "an output is missing") }
        return owned
    }

    private static func describe(_ value: OpaquePointer, table: OrtApi) throws(ONNXRuntimeError) -> ([Int], TensorElementType) {
        var info: OpaquePointer?
        try check(table.GetTensorTypeAndShape(value, &info), "read an output's shape")
        guard let info else { throw .failed(operation: "read an output's shape", code: 0, detail: "") }
        defer { table.ReleaseTensorTypeAndShapeInfo(info) }
        var count = 0
        try check(table.GetDimensionsCount(info, &count), "read an output's shape")
        var dims = [Int64](repeating: 0, count: count)
        try check(table.GetDimensions(info, &dims, count), "read an output's shape")
        var onnxType = ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED
        try check(table.GetTensorElementType(info, &onnxType), "read an output's type")
        let type: TensorElementType
        switch onnxType {
        case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT: type = .float32
        case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64: type = .int64
        case ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL: type = .bool
        default: throw .unexpectedElementType(tensor: "output", expected: "32-bit floats, 64-bit integers or booleans")
        }
        return (dims.map { Int($0) }, type)
    }
}

/// A model file mapped read-only into memory for ONNX Runtime to read in place; unmapped by
/// its session after the session is released.
final class MappedModelFile: @unchecked Sendable {
    // Sendable: the mapping is read-only and never changes until `unmap`, called once by the
    // session's deinit, after ONNX Runtime has let go of it.
    let address: UnsafeMutableRawPointer
    let length: Int

    init(_ url: URL) throws(ONNXRuntimeError) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .modelUnreadable(path: url.path, detail: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else {
            throw .modelUnreadable(path: url.path, detail: "the file is empty or cannot be read")
        }
        length = Int(status.st_size)
        guard let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            throw .modelUnreadable(path: url.path, detail: String(cString: strerror(errno)))
        }
        address = mapped
    }

    func unmap() { munmap(address, length) }
}
