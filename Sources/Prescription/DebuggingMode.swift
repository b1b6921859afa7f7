import Foundation
import Hearing

/// One reference threshold set by hand in the debugging mode: the threshold the fitting is
/// computed from, at one standard frequency of one ear. Written on the command line as
/// `left:2000=65` (dB HL).
public struct ReferenceThresholdChange: Sendable, Equatable, CustomStringConvertible {
    public let ear: Ear
    public let frequencyHz: Double
    public let thresholdHL: Double

    public init(ear: Ear, frequencyHz: Double, thresholdHL: Double) throws {
        guard AudiometricFrequency.all.contains(frequencyHz), thresholdHL.isFinite,
              EarAudiogram.thresholdRangeHL.contains(thresholdHL) else {
            throw PrescriptionError.invalidThresholdChange("\(ear.name):\(Int(frequencyHz))=\(thresholdHL)")
        }
        self.ear = ear
        self.frequencyHz = frequencyHz
        self.thresholdHL = thresholdHL
    }

    /// Reads `EAR:FREQUENCY=DB`, e.g. `left:2000=65` or `right:4000=70`.
    public init(parsing text: String) throws {
        let parts = text.lowercased().split(whereSeparator: { $0 == ":" || $0 == "=" }).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 3, let ear = Ear(rawValue: parts[0]),
              let frequency = Double(parts[1].replacingOccurrences(of: "hz", with: "")),
              let threshold = Double(parts[2].replacingOccurrences(of: "db", with: "")) else {
            throw PrescriptionError.invalidThresholdChange(text)
        }
        do { try self.init(ear: ear, frequencyHz: frequency, thresholdHL: threshold) } catch {
            throw PrescriptionError.invalidThresholdChange(text)
        }
    }

    public var description: String { "\(ear.name) \(Int(frequencyHz)) Hz → \(Int(thresholdHL.rounded())) dB HL" }
}

/// The debugging mode: reference thresholds may be changed by hand and the fitting follows.
/// It exists only as unlocked by a verified debug prescription (signed by a trusted audiologist
/// or developer key, not expired); `UnlockedPatientStore.debuggingMode()` is the way to get one.
/// A patient cannot change what they hear through in any other way.
public struct DebuggingMode: Sendable {
    /// The debug prescription that unlocked the mode.
    public let authorisation: VerifiedPrescription

    init(authorisation: VerifiedPrescription) throws {
        guard authorisation.document.kind == .debug else { throw PrescriptionError.debuggingModeLocked }
        self.authorisation = authorisation
    }

    /// `audiogram` with each change applied (a later change of the same ear and frequency wins);
    /// the fitting is then computed from it as from any audiogram.
    public func changingReferenceThresholds(of audiogram: Audiogram, _ changes: [ReferenceThresholdChange]) throws -> Audiogram {
        func changed(_ ear: Ear) throws -> EarAudiogram {
            var thresholds = audiogram[ear].thresholdsHL
            for change in changes where change.ear == ear { thresholds[change.frequencyHz] = change.thresholdHL }
            return try EarAudiogram(ear: ear, thresholdsHL: thresholds, uncomfortableLevelsHL: audiogram[ear].uncomfortableLevelsHL)
        }
        return Audiogram(left: try changed(.left), right: try changed(.right))
    }
}

extension UnlockedPatientStore {
    /// The debugging mode, when a valid debug prescription is stored; `debuggingModeLocked`
    /// otherwise. Entering it is written to the audit log.
    public func debuggingMode() throws -> DebuggingMode {
        guard let authorisation = try debugAuthorization() else { throw PrescriptionError.debuggingModeLocked }
        return try DebuggingMode(authorisation: authorisation)
    }

    /// Writes the reference thresholds changed in the debugging mode to the audit log (which is
    /// encrypted like the rest of the store).
    public func recordThresholdChanges(_ changes: [ReferenceThresholdChange], in mode: DebuggingMode) throws {
        try auditLocked("changed reference thresholds in debugging mode",
                        detail: changes.map(\.description).joined(separator: "; ")
                            + " (authorised by \(mode.authorisation.document.audiologist.name))")
    }
}
