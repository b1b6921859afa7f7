import Foundation

/// A number as a sentence shows it, for any `Double` a user or a file can give: whole numbers
/// without ".0" (`maximumObjects` 5, `1000 Hz`), others with up to `fractionDigits` digits, huge or
/// tiny ones in exponent form (1e+308), and the non-finite values in words. It never traps, unlike
/// `Int(value)`, which crashed error messages for values such as 1e308 (issue 16).
public func numberText(_ value: Double, fractionDigits: Int = 6) -> String {
    if value.isNaN { return "not a number" }
    if value.isInfinite { return value < 0 ? "minus infinity" : "infinity" }
    // Beyond 2^53 a Double no longer holds every whole number, and Int64 ends at 9.2e18.
    if abs(value) >= 1e15 || (value != 0 && abs(value) < 1e-4) { return String(format: "%g", value) }
    if value.rounded() == value { return String(Int64(value)) }
    var text = String(format: "%.\(max(0, min(fractionDigits, 15)))f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
}
