import Foundation

extension String {
    /// This text with every control and format character (escape sequences, newlines, carriage
    /// returns, bidirectional overrides) replaced by U+FFFD. Text that came from outside — a
    /// backup, a stored row, a file name — goes through this before it is printed or spoken, so
    /// it can never move the cursor, clear the screen or fake a line of output (issue 16).
    public var withoutControlCharacters: String {
        guard unicodeScalars.contains(where: Self.isControl) else { return self }
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars { result.append(Self.isControl(scalar) ? "\u{FFFD}" : scalar) }
        return String(result)
    }

    /// Whether this is plain printable text: no control or format characters at all.
    public var isPrintable: Bool { !unicodeScalars.contains(where: Self.isControl) }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: return true
        default: return false
        }
    }
}
