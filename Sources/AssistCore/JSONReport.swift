import Foundation

/// A report's `--json` form: indented with sorted keys, so two runs compare line by line.
public enum JSONReport {
    public static func text<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
