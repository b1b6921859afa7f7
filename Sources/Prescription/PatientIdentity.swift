import Foundation

extension PrescriptionDocument.Patient {
    /// Whether two prescriptions name the same person: the same name (ignoring case and runs of
    /// spaces) and, where both carry one, the same patient number. A number on one and not the
    /// other is not a difference: clinics leave it out, and the name still has to match.
    public func isSamePerson(as other: PrescriptionDocument.Patient) -> Bool {
        func normalised(_ text: String) -> String {
            text.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
        }
        guard normalised(name) == normalised(other.name) else { return false }
        let mine = reference.trimmingCharacters(in: .whitespaces), theirs = other.reference.trimmingCharacters(in: .whitespaces)
        return mine.isEmpty || theirs.isEmpty || mine.caseInsensitiveCompare(theirs) == .orderedSame
    }

    /// "Jane Doe (patient number P-1)", or the name alone where there is no number.
    public var spokenDescription: String {
        let number = reference.trimmingCharacters(in: .whitespaces)
        return number.isEmpty ? name : "\(name) (patient number \(number))"
    }
}
