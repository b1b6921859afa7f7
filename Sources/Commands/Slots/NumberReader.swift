/// Numbers as typed or said: "0.5", "50", "fifty", "one hundred and fifty", "zero point five",
/// "point five", "fifty percent", "a half", "three quarters".
struct NumberReader: Sendable {
    struct Reading: Sendable, Equatable {
        var value: Double
        var isPercent: Bool
    }

    let words: LanguageFile.Numbers
    private var percentWords: [[String]] { words.percent.map { $0.split(separator: " ").map(String.init) } }

    func read(_ tokens: ArraySlice<String>) -> Reading? {
        var tokens = Array(tokens)
        var isPercent = false
        for percent in percentWords where tokens.count > percent.count && Array(tokens.suffix(percent.count)) == percent {
            tokens.removeLast(percent.count)
            isPercent = true
            break
        }
        guard let value = value(of: tokens) else { return nil }
        return Reading(value: value, isPercent: isPercent)
    }

    private func value(of tokens: [String]) -> Double? {
        if tokens.count == 1, let number = Double(tokens[0]), number.isFinite { return number }
        if tokens.count <= 2, let last = tokens.last, let fraction = words.fractions[last] {
            if tokens.count == 1 || ["a", "one"].contains(tokens[0]) { return fraction }
            // "three quarters", "two thirds": so many of the fraction.
            if let count = words.units[tokens[0]] ?? Int(tokens[0]), count > 1 { return Double(count) * fraction }
            return nil
        }
        let pointIndex = tokens.firstIndex(of: words.point)
        let wholeWords = Array(tokens[..<(pointIndex ?? tokens.count)])
        var result: Double = 0
        if !wholeWords.isEmpty {
            guard let whole = wholeNumber(wholeWords) else { return nil }
            result = Double(whole)
        } else if pointIndex == nil {
            return nil
        }
        if let pointIndex {
            let digits = tokens[(pointIndex + 1)...]
            guard !digits.isEmpty else { return nil }
            var decimals = ""
            for digit in digits {
                guard let value = words.units[digit] ?? Int(digit).flatMap({ (0...9).contains($0) ? $0 : nil }),
                      (0...9).contains(value) else { return nil }
                decimals += String(value)
            }
            // Read as the decimal it spells ("zero point six" is 0.6), not summed digit by digit,
            // which gave 0.6000000000000001 (then set and announced as such).
            return Double("\(Int(result)).\(decimals)")
        }
        return result
    }

    /// "two hundred and fifty" → 250, "one fifty" → 150 (hundreds said as people say a rate:
    /// a number below twenty, then tens, and no "hundred"); nil for anything that is not a number
    /// said in words, and for words in no order a number is said in ("fifty fifty", "five
    /// five"): summing them would set a value nobody said ("one fifty" was once read as 51).
    private func wholeNumber(_ tokens: [String]) -> Int? {
        var total = 0
        var current = 0
        // What the group below the last scale has so far: nothing, a unit (1-19), tens, tens and a unit.
        enum Said { case nothing, unit, tens, tensAndUnit, digits }
        var said = Said.nothing
        var sawNumber = false
        for token in tokens {
            if words.joiners.contains(token) { continue }
            if let unit = words.units[token] {
                switch said {
                case .nothing: current += unit
                // "fifty five", "one fifty five".
                case .tens where unit < 10 && unit > 0: current += unit
                default: return nil
                }
                said = said == .nothing ? .unit : .tensAndUnit
            } else if let ten = words.tens[token] {
                switch said {
                case .nothing: current += ten
                // "one fifty": so many hundreds, then the tens.
                case .unit where current % 100 > 0 && current % 100 < 20 && current < 100:
                    current = current * 100 + ten
                default: return nil
                }
                said = .tens
            } else if let scale = words.scales[token] {
                current = max(current, 1) * scale
                if scale >= 1000 { total += current; current = 0 }
                said = .nothing
            } else if let digits = Int(token) {
                guard said == .nothing else { return nil }
                current += digits
                said = .digits
            } else {
                return nil
            }
            sawNumber = true
        }
        return sawNumber ? total + current : nil
    }
}
