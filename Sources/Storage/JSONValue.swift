import Foundation

/// Any JSON value: how a setting's value is stored, imported from a backup and printed by
/// `assist settings show --json`. Validation turns it into a typed setting, or names what is wrong.
public enum JSONValue: Codable, Equatable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            // Whole numbers print without ".0" so `maximumObjects` reads 5, not 5.0.
            if value.rounded() == value, abs(value) < 1e15 { try container.encode(Int64(value)) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Compact JSON text, keys sorted, as quoted in error messages.
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A value typed as "nan" or "inf" is refused by validation, and the refusal quotes it:
        // in words, not as "?" (JSON has no such numbers, so the encoder would otherwise throw).
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "infinity", negativeInfinity: "minus infinity", nan: "not a number")
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }

    public var description: String { jsonText }

    /// Parses JSON text (any value, including a bare number or string).
    public init(jsonText: String) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: Data(jsonText.utf8))
    }

    init<T: Encodable>(encoding value: T) {
        // Encoding our own plain settings types to JSON cannot fail.
        let data = try! JSONEncoder().encode(value)
        self = try! JSONDecoder().decode(JSONValue.self, from: data)
    }

    func decoded<T: Decodable>(as type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(self))
    }
}
