import Foundation
import Hearing

/// What an audiologist prescribes, as signed into the QR code: who it is for, the audiogram,
/// the fitting rule with its resulting targets, the environment programs, who prescribed it and
/// when, and (for a trial) until when. A plain value; `PayloadCoding` gives its one canonical
/// encoding and `PrescriptionSigner` signs it.
///
/// Everything is validated here, at the boundary: an invalid value never reaches the encoder,
/// and the error names the field and the allowed range.
public struct PrescriptionDocument: Sendable, Equatable {
    /// A fitting is what the patient hears through; a debug prescription (itself signed by a
    /// trusted key) unlocks the debugging mode in which reference thresholds may be changed.
    public enum Kind: UInt8, Sendable, Equatable, CaseIterable {
        case fitting = 0
        case debug = 1
    }

    /// The minimum that tells a patient's prescriptions apart from someone else's.
    public struct Patient: Sendable, Equatable {
        public var name: String
        /// The clinic's patient number; may be empty.
        public var reference: String
        public var birthYear: Int?

        public init(name: String, reference: String = "", birthYear: Int? = nil) {
            self.name = name
            self.reference = reference
            self.birthYear = birthYear
        }
    }

    public struct Audiologist: Sendable, Equatable, Codable {
        public var name: String
        /// The audiologist's registration number or another identifier their key is issued to.
        public var identifier: String

        public init(name: String, identifier: String) {
            self.name = name
            self.identifier = identifier
        }
    }

    /// The one format version this code writes and reads.
    public static let currentFormatVersion = 1

    public let formatVersion: Int
    public let kind: Kind
    public let patient: Patient
    public let audiologist: Audiologist
    /// Whole seconds (the encoding keeps no fractions).
    public let issued: Date
    /// Set for a temporary trial prescription: refused from this moment on.
    public let expires: Date?
    public let audiogram: Audiogram
    public let rule: FittingRule
    public let levelReference: LevelReference
    public let maximumOutputSPL: Int
    /// The environment programs the patient may switch between, in a fixed order.
    public let programs: [ListeningProgram]
    /// The resulting targets the audiologist saw: medium-level (65 dB SPL) insertion gain in
    /// whole dB at each standard frequency, per ear. The patient's installation recomputes the
    /// fitting and refuses a prescription whose targets it would not reproduce within 1 dB.
    public let mediumGainTargets: EarTargets

    /// Medium insertion gains in whole dB at `AudiometricFrequency.all`, left and right.
    public struct EarTargets: Sendable, Equatable {
        public let left: [Int]
        public let right: [Int]
        public subscript(ear: Ear) -> [Int] { ear == .left ? left : right }
    }

    public static let nameMaximumBytes = 64
    public static let identifierMaximumBytes = 32
    public static let allowedBirthYears = 1900...2100
    public static let allowedMaximumOutputSPL = 60...Int(FittingOptions.absoluteMaximumOutputSPL)

    /// Makes a document from an audiogram and the fitting choices, computing the targets.
    /// Thresholds and uncomfortable levels must be whole dB (audiometers step in 5 dB; whole
    /// dB keeps the encoding exact), the issue date is cut to whole seconds.
    public init(kind: Kind = .fitting, patient: Patient, audiologist: Audiologist, issued: Date, expires: Date? = nil,
                audiogram: Audiogram, rule: FittingRule, levelReference: LevelReference = .band,
                maximumOutputSPL: Int = 100, programs: [ListeningProgram] = ListeningProgram.allCases) throws {
        try Self.validateMaximumOutput(maximumOutputSPL)
        let targets = try Self.targets(audiogram: audiogram, rule: rule, levelReference: levelReference,
                                       maximumOutputSPL: maximumOutputSPL)
        try self.init(formatVersion: Self.currentFormatVersion, kind: kind, patient: patient, audiologist: audiologist,
                      issued: issued, expires: expires, audiogram: audiogram, rule: rule, levelReference: levelReference,
                      maximumOutputSPL: maximumOutputSPL, programs: programs, mediumGainTargets: targets)
    }

    /// The decoder's initializer: every field as read, validated the same way.
    init(formatVersion: Int, kind: Kind, patient: Patient, audiologist: Audiologist, issued: Date, expires: Date?,
         audiogram: Audiogram, rule: FittingRule, levelReference: LevelReference, maximumOutputSPL: Int,
         programs: [ListeningProgram], mediumGainTargets: EarTargets) throws {
        try Self.validateText(patient.name, field: "patient name", maximumBytes: Self.nameMaximumBytes, allowEmpty: false)
        try Self.validateText(patient.reference, field: "patient reference", maximumBytes: Self.identifierMaximumBytes, allowEmpty: true)
        if let year = patient.birthYear, !Self.allowedBirthYears.contains(year) {
            throw PrescriptionError.invalidField(field: "patient birth year", reason: "is \(year), outside 1900 to 2100")
        }
        try Self.validateText(audiologist.name, field: "audiologist name", maximumBytes: Self.nameMaximumBytes, allowEmpty: false)
        try Self.validateText(audiologist.identifier, field: "audiologist identifier", maximumBytes: Self.identifierMaximumBytes, allowEmpty: false)
        let issuedSeconds = issued.timeIntervalSince1970.rounded(.down)
        guard issuedSeconds >= 0, issuedSeconds < Double(UInt32.max) else {
            throw PrescriptionError.invalidField(field: "issue date", reason: "is outside 1970 to 2106")
        }
        var expirySeconds: Double?
        if let expires {
            let seconds = expires.timeIntervalSince1970.rounded(.down)
            guard seconds > issuedSeconds, seconds < Double(UInt32.max) else {
                throw PrescriptionError.invalidField(field: "expiry date", reason: "must be after the issue date")
            }
            expirySeconds = seconds
        }
        for ear in Ear.allCases {
            for (f, v) in audiogram[ear].thresholdsHL where v != v.rounded() {
                throw PrescriptionError.invalidField(field: "\(ear.name) threshold at \(Int(f)) Hz",
                                                     reason: "is \(v) dB HL; use whole decibels")
            }
            for (f, v) in audiogram[ear].uncomfortableLevelsHL where v != v.rounded() {
                throw PrescriptionError.invalidField(field: "\(ear.name) uncomfortable level at \(Int(f)) Hz",
                                                     reason: "is \(v) dB HL; use whole decibels")
            }
        }
        try Self.validateMaximumOutput(maximumOutputSPL)
        guard !programs.isEmpty else {
            throw PrescriptionError.invalidField(field: "program list", reason: "is empty; give at least one program")
        }
        for ear in Ear.allCases where mediumGainTargets[ear].count != AudiometricFrequency.all.count
            || mediumGainTargets[ear].contains(where: { !(0...255).contains($0) }) {
            throw PrescriptionError.invalidField(field: "\(ear.name) targets", reason: "must be 0 to 255 dB at each of the 11 standard frequencies")
        }
        self.formatVersion = formatVersion
        self.kind = kind
        self.patient = patient
        self.audiologist = audiologist
        self.issued = Date(timeIntervalSince1970: issuedSeconds)
        self.expires = expirySeconds.map { Date(timeIntervalSince1970: $0) }
        self.audiogram = audiogram
        self.rule = rule
        self.levelReference = levelReference
        self.maximumOutputSPL = maximumOutputSPL
        // One order, whatever order the programs were given in: the encoding is a bit set.
        self.programs = ListeningProgram.allCases.filter(programs.contains)
        self.mediumGainTargets = mediumGainTargets
    }

    /// The fitting options this document prescribes (the other options keep Hearing's defaults,
    /// which format version 1 fixes).
    public var fittingOptions: FittingOptions {
        FittingOptions(rule: rule, levelReference: levelReference, maximumOutputSPL: Double(maximumOutputSPL))
    }

    /// The hearing-aid fitting: the targets computed from the audiogram with the prescribed rule.
    public func fitting() throws -> Hearing.Prescription {
        try Hearing.Prescription(audiogram: audiogram, options: fittingOptions)
    }

    public func isExpired(at now: Date) -> Bool {
        guard let expires else { return false }
        return now >= expires
    }

    static func targets(audiogram: Audiogram, rule: FittingRule, levelReference: LevelReference,
                        maximumOutputSPL: Int) throws -> EarTargets {
        let fitting: Hearing.Prescription
        do {
            fitting = try Hearing.Prescription(audiogram: audiogram, options: FittingOptions(
                rule: rule, levelReference: levelReference, maximumOutputSPL: Double(maximumOutputSPL)))
        } catch let error as HearingError {
            throw PrescriptionError.fittingRejected(reason: error.userMessage)
        }
        func gains(_ ear: Ear) -> [Int] { fitting[ear].bands.map { Int($0.mediumGain.rounded()) } }
        return EarTargets(left: gains(.left), right: gains(.right))
    }

    static func validateMaximumOutput(_ maximumOutputSPL: Int) throws {
        guard allowedMaximumOutputSPL.contains(maximumOutputSPL) else {
            throw PrescriptionError.invalidField(field: "maximum output",
                                                 reason: "is \(maximumOutputSPL) dB SPL, outside 60 to \(allowedMaximumOutputSPL.upperBound) dB SPL")
        }
    }

    static func validateText(_ text: String, field: String, maximumBytes: Int, allowEmpty: Bool) throws {
        if !allowEmpty && text.trimmingCharacters(in: .whitespaces).isEmpty {
            throw PrescriptionError.invalidField(field: field, reason: "is empty")
        }
        if text.utf8.count > maximumBytes {
            throw PrescriptionError.invalidField(field: field, reason: "is \(text.utf8.count) bytes long; at most \(maximumBytes) fit the QR code")
        }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw PrescriptionError.invalidField(field: field, reason: "contains control characters")
        }
    }
}
