import Foundation

/// The fields of an application/x-www-form-urlencoded body (a form POST), first value of each.
struct FormFields: Sendable, Equatable {
    var values: [String: String] = [:]

    init(encoded body: String) {
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else { continue }
            let value = parts.count > 1 ? (Self.decode(parts[1]) ?? "") : ""
            if values[name] == nil { values[name] = value }
        }
    }

    subscript(name: String) -> String? { values[name] }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
