import Foundation
import Hearing

/// The audiogram an audiologist types into `assist rx create`: Hearing's JSON document (see
/// `AudiogramDocument`, which also carries the rule and maximum output), or a CSV table:
///
///     frequency,left,right,left_ucl,right_ucl
///     250,20,25,,
///     1000,40,45,,100
///
/// One row a frequency (Hz), thresholds in dB HL; an empty cell is "not measured"; the header
/// line and the UCL columns are optional.
public enum AudiogramCSV {
    public static func parse(_ text: String) throws -> Audiogram {
        var tables: [[Double: Double]] = Array(repeating: [:], count: 4)
        for (number, rawLine) in text.split(whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if number == 0, Double(cells[0]) == nil { continue } // the header
            guard let frequency = Double(cells[0].lowercased().replacingOccurrences(of: "hz", with: "")), frequency.isFinite,
                  cells.count >= 3, cells.count <= 5 else {
                throw PrescriptionError.invalidField(field: "audiogram line \(number + 1)",
                                                     reason: "must be frequency,left,right[,left_ucl,right_ucl]")
            }
            for (column, cell) in cells.dropFirst().enumerated() where !cell.isEmpty {
                guard let value = Double(cell) else {
                    throw PrescriptionError.invalidField(field: "audiogram line \(number + 1)", reason: "has “\(cell)”, which is not a number of dB HL")
                }
                tables[column][frequency] = value
            }
        }
        do {
            return Audiogram(left: try EarAudiogram(ear: .left, thresholdsHL: tables[0], uncomfortableLevelsHL: tables[2]),
                             right: try EarAudiogram(ear: .right, thresholdsHL: tables[1], uncomfortableLevelsHL: tables[3]))
        } catch let error as HearingError {
            throw PrescriptionError.invalidField(field: "audiogram", reason: "is not usable: \(error.userMessage)")
        }
    }
}
