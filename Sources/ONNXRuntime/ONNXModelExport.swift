import Foundation

/// An ORT-format model (`.ort`) saved once as an `.onnx` file, so that ONNX Runtime can
/// optimise it when loading.
///
/// Why: ONNX Runtime applies no graph optimisation to a model in its own format, and Moonshine's
/// `.ort` files keep their weights as 8-bit integers expanded by Cast, Mul and Add nodes. Run as
/// they are, every decoder step expands all 42 million weights again (and transposes the
/// 32,768 × 416 embedding for the output projection): about 150 ms of each 160 ms step on the
/// development machine. The same graph loaded from an `.onnx` file has those nodes folded into
/// constants once at load (ONNX Runtime's constant folding), and a step takes 30–50 ms
/// (BENCHMARKS.md, "Issue 35 (twenty-second session)").
///
/// ONNX Runtime writes the model as it read it (`SetOptimizedModelFilePath` with optimisations
/// off) but leaves the names of an `If` node's subgraphs empty, which its own loader then
/// refuses; `namingSubgraphs` gives them names. Nothing else in the file is changed.
///
/// Loaded as `.onnx`, though, the folded weights sat beside their 8-bit originals and their
/// prepacked copies: `assist listen` peaked at 1.06 GB. So the `.onnx`
/// copy is only a step: `foldedCopy` has ONNX Runtime fold it once (its basic level, the same on
/// every CPU) and save the result in its own format, which loads with nothing left to fold and
/// one copy of each weight (BENCHMARKS.md, "The recogniser's memory (twenty-third session)").
public enum ONNXModelExport {
    /// `ortModel` with its weight expansion folded into float weights, saved as
    /// `NAME.folded.ort` next to it (or in `fallbackFolder`) and reused while newer than it.
    /// Load it with optimisations off and prepacking off (`foldedSessionOptions`).
    public static func foldedCopy(of ortModel: URL,
                                  fallbackFolder: URL = defaultFallbackFolder) throws(ONNXRuntimeError) -> URL {
        guard FileManager.default.fileExists(atPath: ortModel.path) else { throw .modelFileMissing(path: ortModel.path) }
        let name = foldedName(of: ortModel)
        let folders = copyFolders(for: ortModel, fallbackFolder: fallbackFolder)
        if let current = folders.map({ $0.appendingPathComponent(name) }).first(where: { isCurrent($0, for: ortModel) }) {
            return current
        }
        // The model's own folder, or the fallback when that cannot be written (a read-only install).
        guard let folder = folders.first(where: { folder in
            (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil
                && FileManager.default.isWritableFile(atPath: folder.path)
        }) else {
            throw .modelNotConverted(path: ortModel.path, detail: "neither \(folders[0].path) nor \(folders[1].path) can be written to")
        }
        let copy = folder.appendingPathComponent(name)
        removeLeftovers(of: name, in: folder)
        // Both steps' files are this call's own, so that two loads at once do not share one.
        // The `.onnx` step is not kept: the folded copy is what is loaded.
        let unfolded = folder.appendingPathComponent(".\(name).\(UUID().uuidString).onnx")
        let raw = folder.appendingPathComponent(".\(name).\(UUID().uuidString).ort")
        defer {
            try? FileManager.default.removeItem(at: unfolded)
            try? FileManager.default.removeItem(at: raw)
        }
        try export(ortModel, to: unfolded)
        // ONNX Runtime's basic level folds the expansion and saves the graph it would run.
        _ = try ONNXSession(modelAt: unfolded, options: ONNXSessionOptions(threadCount: 1, memoryArena: false, optimization: .basic,
                                                                          saveLoadedModelTo: raw, weightPrepacking: false))
        // Atomic (rename over the old one): another process loading the model at the same time
        // sees a whole file or none.
        guard rename(raw.path, copy.path) == 0 else {
            throw .modelNotConverted(path: ortModel.path, detail: String(cString: strerror(errno)))
        }
        return copy
    }

    /// Whether `ortModel`'s folded copy is made and current: if not, the next load makes it
    /// first (some seconds), which the user is told of beforehand.
    public static func hasFoldedCopy(of ortModel: URL, fallbackFolder: URL = defaultFallbackFolder) -> Bool {
        copyFolders(for: ortModel, fallbackFolder: fallbackFolder).contains { isCurrent($0.appendingPathComponent(foldedName(of: ortModel)), for: ortModel) }
    }

    /// A process that ends while it makes a copy ("exit" during the first start) leaves its
    /// step files (`.NAME.…`, some 40 MB each). They are removed by the next making once an hour
    /// old: a younger one may be another process's, still being written.
    static func removeLeftovers(of name: String, in folder: URL, olderThan age: TimeInterval = 3600, now: Date = Date()) {
        guard let files = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.contentModificationDateKey]) else { return }
        for file in files where file.lastPathComponent.hasPrefix(".\(name).") {
            guard let modified = try? file.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate,
                  now.timeIntervalSince(modified) > age else { continue }
            try? FileManager.default.removeItem(at: file)
        }
    }

    private static func foldedName(of model: URL) -> String { model.deletingPathExtension().lastPathComponent + ".folded.ort" }

    /// Where a model's folded copy may lie: beside it, or in the fallback folder when that cannot be written.
    private static func copyFolders(for model: URL, fallbackFolder: URL) -> [URL] {
        [model.deletingLastPathComponent(), fallbackFolder.appendingPathComponent(sourceTag(model))]
    }

    /// How a folded copy is loaded: nothing left to optimise, no second, prepacked copy of its
    /// float weights, and the file read in place rather than copied while loading (the
    /// decoder's 275 MB would otherwise be held two or three times over at once).
    public static func foldedSessionOptions(threadCount: Int) -> ONNXSessionOptions {
        ONNXSessionOptions(threadCount: threadCount, memoryArena: false, optimization: .off, weightPrepacking: false,
                           mapModelFile: true)
    }

    public static let defaultFallbackFolder = FileManager.default.temporaryDirectory.appendingPathComponent("assistivekit-models")

    /// The fallback copies of models with the same file name in different folders are kept apart.
    private static func sourceTag(_ model: URL) -> String {
        let path = model.deletingLastPathComponent().standardizedFileURL.path
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        return String(hash, radix: 16)
    }

    private static func isCurrent(_ copy: URL, for model: URL) -> Bool {
        guard let copied = try? FileManager.default.attributesOfItem(atPath: copy.path),
              let original = try? FileManager.default.attributesOfItem(atPath: model.path),
              let copiedDate = copied[.modificationDate] as? Date, let originalDate = original[.modificationDate] as? Date,
              let size = copied[.size] as? NSNumber, size.intValue > 0 else { return false }
        return copiedDate >= originalDate
    }

    private static func export(_ model: URL, to copy: URL) throws(ONNXRuntimeError) {
        let folder = copy.deletingLastPathComponent()
        // `copy` is already this call's own name (`foldedCopy`), so its step file can follow it.
        let raw = folder.appendingPathComponent(copy.lastPathComponent + ".raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        // Loading with optimisations off and a file to save to writes the graph as read.
        _ = try ONNXSession(modelAt: model, options: ONNXSessionOptions(threadCount: 1, optimization: .off, saveLoadedModelTo: raw))
        do {
            let named = try namingSubgraphs(Data(contentsOf: raw))
            // Not `.atomic`: the name is this call's own, and Foundation's temporary file would be
            // left behind by a process that ends here.
            try named.write(to: copy)
        } catch let error as ONNXRuntimeError {
            throw error
        } catch {
            throw .modelNotConverted(path: model.path, detail: error.localizedDescription)
        }
    }

    // MARK: The subgraphs' names (protocol buffers, only as far as ModelProto → GraphProto →
    // NodeProto → AttributeProto → GraphProto).

    /// `model` (an ONNX ModelProto) with every unnamed subgraph (an attribute's GraphProto)
    /// named `subgraph_N`; the main graph named `main` if it has no name.
    static func namingSubgraphs(_ model: Data) throws(ONNXRuntimeError) -> Data {
        var counter = 0
        let bytes = [UInt8](model)
        let rewritten = try rewrite(bytes[...]) { (field: UInt64, payload: ArraySlice<UInt8>) throws(ONNXRuntimeError) -> [UInt8]? in
            field == 7 ? try graph(payload, name: "main", counter: &counter) : nil   // ModelProto.graph
        }
        return Data(rewritten)
    }

    private static func graph(_ bytes: ArraySlice<UInt8>, name: String, counter: inout Int) throws(ONNXRuntimeError) -> [UInt8] {
        var named = false
        var out = try rewrite(bytes) { (field: UInt64, payload: ArraySlice<UInt8>) throws(ONNXRuntimeError) -> [UInt8]? in
            switch field {
            case 1: return try node(payload, counter: &counter)     // GraphProto.node
            case 2: if payload.isEmpty { return [] }; named = true; return nil   // GraphProto.name
            default: return nil
            }
        }
        if !named { out += lengthDelimited(field: 2, Array(name.utf8)) }
        return out
    }

    private static func node(_ bytes: ArraySlice<UInt8>, counter: inout Int) throws(ONNXRuntimeError) -> [UInt8] {
        try rewrite(bytes) { (field: UInt64, payload: ArraySlice<UInt8>) throws(ONNXRuntimeError) -> [UInt8]? in
            guard field == 5 else { return nil }   // NodeProto.attribute
            return try rewrite(payload) { (field: UInt64, payload: ArraySlice<UInt8>) throws(ONNXRuntimeError) -> [UInt8]? in
                guard field == 6 else { return nil }   // AttributeProto.g
                counter += 1
                return try graph(payload, name: "subgraph_\(counter)", counter: &counter)
            }
        }
    }

    /// Copies a message field by field; for a length-delimited field, `replace` may return the
    /// new payload (re-framed with its length; an empty array drops the field) or nil to keep it.
    private static func rewrite(_ bytes: ArraySlice<UInt8>,
                                _ replace: (UInt64, ArraySlice<UInt8>) throws(ONNXRuntimeError) -> [UInt8]?) throws(ONNXRuntimeError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let start = index
            let key = try varint(bytes, &index)
            let field = key >> 3
            switch key & 7 {
            case 0: _ = try varint(bytes, &index)
            case 1: index += 8
            case 5: index += 4
            case 2:
                let length = Int(try varint(bytes, &index))
                guard length <= bytes.endIndex - index else { throw malformed }
                let payload = bytes[index..<(index + length)]
                index += length
                if let replacement = try replace(field, payload) {
                    if replacement.isEmpty { continue }
                    out += lengthDelimited(field: field, replacement)
                    continue
                }
            default: throw malformed
            }
            guard index <= bytes.endIndex else { throw malformed }
            out += bytes[start..<index]
        }
        return out
    }

    private static let malformed = ONNXRuntimeError.modelNotConverted(path: "the saved model", detail: "ONNX Runtime wrote a file that is not a well-formed ONNX model")

    private static func varint(_ bytes: ArraySlice<UInt8>, _ index: inout Int) throws(ONNXRuntimeError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.endIndex, shift < 64 {
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        throw malformed
    }

    private static func encodeVarint(_ value: UInt64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        repeat {
            let byte = UInt8(value & 0x7f)
            value >>= 7
            out.append(value == 0 ? byte : byte | 0x80)
        } while value != 0
        return out
    }

    private static func lengthDelimited(field: UInt64, _ payload: [UInt8]) -> [UInt8] {
        encodeVarint(field << 3 | 2) + encodeVarint(UInt64(payload.count)) + payload
    }
}
