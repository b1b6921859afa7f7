import Foundation
import Hearing

/// How prescriptions are described on screen (`assist rx list`, `show`, `import`, `create`).
public enum PrescriptionDescription {
    public static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }

    public static func summary(_ document: PrescriptionDocument) -> String {
        let kind = document.kind == .debug ? "debug (unlocks debugging mode)" : "fitting"
        let expiry = document.expires.map { ", trial until \(day($0))" } ?? ""
        return "\(kind) for \(document.patient.name) by \(document.audiologist.name), issued \(day(document.issued))\(expiry)"
    }

    public static func details(_ verified: VerifiedPrescription) -> String {
        let d = verified.document
        var lines = [
            "Patient: \(d.patient.name)\(d.patient.reference.isEmpty ? "" : " (\(d.patient.reference))")\(d.patient.birthYear.map { ", born \($0)" } ?? "")",
            "Audiologist: \(d.audiologist.name) (\(d.audiologist.identifier)), key \(verified.signer.fingerprint)",
            "Issued: \(day(d.issued))\(d.expires.map { "; trial prescription, expires \(day($0))" } ?? "")",
            "Kind: \(d.kind == .debug ? "debug: unlocks the debugging mode" : "fitting")",
            "Rule: \(d.rule.rawValue), maximum output \(d.maximumOutputSPL) dB SPL, level reference \(d.levelReference.rawValue)",
            "Programs: \(d.programs.map(\.rawValue).joined(separator: ", "))",
            "",
            "Frequency (Hz)        " + AudiometricFrequency.all.map { pad(String(Int($0)), 6) }.joined(),
        ]
        for ear in Ear.allCases {
            let audiogram = d.audiogram[ear]
            lines.append(pad("\(ear.name) threshold dB HL", 22) + AudiometricFrequency.all.map { f in
                pad(audiogram.thresholdsHL[f].map { String(Int($0)) } ?? "·", 6) }.joined())
            if !audiogram.uncomfortableLevelsHL.isEmpty {
                lines.append(pad("\(ear.name) UCL dB HL", 22) + AudiometricFrequency.all.map { f in
                    pad(audiogram.uncomfortableLevelsHL[f].map { String(Int($0)) } ?? "·", 6) }.joined())
            }
            lines.append(pad("\(ear.name) target gain dB", 22) + d.mediumGainTargets[ear].map { pad(String($0), 6) }.joined())
        }
        lines.append("(targets: insertion gain for 65 dB SPL input; · = not measured, interpolated)")
        return lines.joined(separator: "\n")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : String(repeating: " ", count: width - text.count) + text
    }
}
