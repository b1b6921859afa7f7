import AssistCore
import Foundation
import Inference

/// The names of a detector's classes, in class-index order, and where they came from.
///
/// Ultralytics exports carry them in different places: an IR has `metadata.yaml` beside the
/// `.xml`, an ONNX file has a `names` entry in its metadata properties. A plain labels file (one
/// name per line) covers custom exports that have neither.
public struct ClassNames: Sendable, Equatable {
    public var names: [String]
    public var source: String

    public init(names: [String], source: String) {
        self.names = names
        self.source = source
    }

    public subscript(index: Int) -> String {
        names.indices.contains(index) ? names[index] : "object \(index)"
    }

    /// Finds the names for a model file, trying (in order) an explicit labels file, the IR's
    /// `metadata.yaml`, and the ONNX metadata. Returns nil when none has them.
    public static func find(forModel model: URL, labelsFile: URL? = nil) throws -> ClassNames? {
        if let labelsFile { return try fromLabelsFile(labelsFile) }
        let yaml = model.deletingLastPathComponent().appendingPathComponent("metadata.yaml")
        if model.pathExtension.lowercased() == "xml", let text = try? String(contentsOf: yaml, encoding: .utf8),
           let names = parseUltralyticsYAML(text) {
            return ClassNames(names: names, source: yaml.lastPathComponent)
        }
        if model.pathExtension.lowercased() == "onnx", let data = FileManager.default.contents(atPath: model.path),
           let value = ONNXMetadata.value(forKey: "names", inModelFile: data),
           let names = parsePythonDictionary(value) {
            return ClassNames(names: names, source: "ONNX metadata")
        }
        return nil
    }

    public static func fromLabelsFile(_ url: URL) throws -> ClassNames {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw DetectorError.labelsUnreadable(path: url.path)
        }
        if let names = parseUltralyticsYAML(text) { return ClassNames(names: names, source: url.lastPathComponent) }
        let names = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard !names.isEmpty else { throw DetectorError.labelsUnreadable(path: url.path) }
        return ClassNames(names: names, source: url.lastPathComponent)
    }

    /// Reads the `names:` block of an Ultralytics YAML (`  0: person` lines, values maybe quoted).
    static func parseUltralyticsYAML(_ text: String) -> [String]? {
        var entries: [Int: String] = [:]
        var inNames = false
        // Split on any newline: Ultralytics writes CRLF on some platforms, and "\r\n" is one Character.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = String(rawLine)
            if line.hasPrefix("names:") { inNames = true; continue }
            guard inNames else { continue }
            guard line.hasPrefix(" ") || line.hasPrefix("\t") else { if !line.isEmpty { break } else { continue } }
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let index = Int(parts[0].trimmingCharacters(in: .whitespaces)) else { continue }
            entries[index] = unquote(parts[1].trimmingCharacters(in: .whitespaces))
        }
        return orderedNames(entries)
    }

    /// Reads Ultralytics' ONNX `names` value, a Python dict literal: `{0: 'person', 1: 'bicycle'}`.
    static func parsePythonDictionary(_ text: String) -> [String]? {
        var entries: [Int: String] = [:]
        var rest = Substring(text)
        while let colon = rest.firstIndex(of: ":") {
            let key = rest[..<colon].drop { !$0.isNumber }.prefix { $0.isNumber }
            var value = rest[rest.index(after: colon)...].drop { $0 == " " }
            guard let quote = value.first, quote == "'" || quote == "\"" else { return nil }
            value = value.dropFirst()
            guard let end = value.firstIndex(of: quote), let index = Int(key) else { return nil }
            entries[index] = String(value[..<end])
            rest = value[value.index(after: end)...]
        }
        return orderedNames(entries)
    }

    private static func unquote(_ value: String) -> String {
        if value.count >= 2, let first = value.first, first == value.last, first == "'" || first == "\"" {
            return String(value.dropFirst().dropLast())
        }
        return value
    }

    private static func orderedNames(_ entries: [Int: String]) -> [String]? {
        guard !entries.isEmpty, let last = entries.keys.max(), last == entries.count - 1 else { return nil }
        return (0...last).map { entries[$0]! }
    }
}

/// Reads one string from an ONNX file's `metadata_props` without a protobuf library: the
/// ModelProto's top-level fields are walked by wire type, and the graph (the bulk of the file)
/// is skipped by its length prefix, so this stays fast on large models.
enum ONNXMetadata {
    static let metadataPropsField = 14   // ModelProto.metadata_props (onnx.proto)

    static func value(forKey wanted: String, inModelFile data: Data) -> String? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> String? in
            var reader = ProtobufReader(bytes: raw)
            while let (field, wireType) = reader.nextKey() {
                if field == metadataPropsField, wireType == 2, let entry = reader.lengthDelimited() {
                    var inner = ProtobufReader(bytes: entry)
                    var key: String?, value: String?
                    while let (entryField, entryWire) = inner.nextKey() {
                        if entryWire == 2, let bytes = inner.lengthDelimited() {
                            let text = String(decoding: bytes, as: UTF8.self)
                            if entryField == 1 { key = text } else if entryField == 2 { value = text }
                        } else if !inner.skip(wireType: entryWire) { break }
                    }
                    if key == wanted { return value }
                } else if !reader.skip(wireType: wireType) {
                    return nil
                }
            }
            return nil
        }
    }
}
