import Foundation
import Hearing

/// What the hearing assistant runs from: the fitting, the environment programs the patient may
/// switch between, and where both came from (for the first line the user reads).
public struct PrescribedHearing: Sendable {
    public let audiogram: Audiogram
    public let options: FittingOptions
    /// In the prescription's order; the first is where listening starts unless another is asked for.
    public let programs: [ListeningProgram]
    public let origin: String
    /// When the signed prescription stops being valid; nil for an audiogram file or no expiry.
    public let expires: Date?

    public init(audiogram: Audiogram, options: FittingOptions, programs: [ListeningProgram], origin: String,
                expires: Date? = nil) {
        self.audiogram = audiogram
        self.options = options
        self.programs = programs
        self.origin = origin
        self.expires = expires
    }

    /// The prescription in use, verified when it was loaded.
    public init(_ verified: VerifiedPrescription, id: String) {
        let document = verified.document
        self.init(audiogram: document.audiogram, options: document.fittingOptions, programs: document.programs,
                  origin: "prescription \(id) by \(document.audiologist.name), issued \(PrescriptionError.day(document.issued))",
                  expires: document.expires)
    }

    /// The targets computed from the audiogram with the prescribed rule.
    public func fitting() throws -> Hearing.Prescription {
        try Hearing.Prescription(audiogram: audiogram, options: options)
    }

    /// The same with reference thresholds changed in the debugging mode.
    public func changingReferenceThresholds(_ changes: [ReferenceThresholdChange], in mode: DebuggingMode) throws -> PrescribedHearing {
        PrescribedHearing(audiogram: try mode.changingReferenceThresholds(of: audiogram, changes), options: options,
                          programs: programs, origin: origin + ", reference thresholds changed in debugging mode", expires: expires)
    }

    /// The program called `name` (any of `ListeningProgram`'s names and aliases, or its number in
    /// `programs` counted from 1), when the prescription has it; nil name: the first.
    public func program(named name: String?) throws -> ListeningProgram {
        guard let name else { return programs[0] }
        if let number = Int(name) {
            guard programs.indices.contains(number - 1) else {
                throw PrescriptionError.programNotPrescribed(program: "number \(number)", prescribed: programs.map(\.rawValue))
            }
            return programs[number - 1]
        }
        let program = try ListeningProgram(named: name)
        guard programs.contains(program) else {
            throw PrescriptionError.programNotPrescribed(program: program.rawValue, prescribed: programs.map(\.rawValue))
        }
        return program
    }
}

extension UnlockedPatientStore {
    /// The prescription in use, verified now, ready to hear through; `noPrescriptionInUse` when
    /// none was imported (a stored one that fails verification is refused with its reason).
    public func prescribedHearing() throws -> PrescribedHearing {
        guard let id = try readState().activeProfile else { throw PrescriptionError.noPrescriptionInUse }
        return PrescribedHearing(try profile(id), id: id)
    }
}
