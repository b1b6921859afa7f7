import AssistCore
import Foundation
import Hearing

/// What an audiologist asks `assist rx create` for: the patient, the audiogram (a JSON file as
/// for `assist hear`, a CSV file, or typed in), the fitting's rule, maximum output and programs,
/// a trial period; signed into a QR code written as PNG and SVG.
public struct PrescriptionRequest: Sendable {
    public var patient: PrescriptionDocument.Patient
    /// A .json or .csv audiogram; nil: typed in (`askAudiogram`).
    public var audiogramFile: String?
    /// Overrides the JSON's rule (default fig6).
    public var rule: String?
    /// dB SPL; overrides the JSON's (default 100).
    public var maximumOutputSPL: Int?
    /// Comma-separated program names; nil: all.
    public var programs: String?
    public var trialDays: Int?
    /// A debug prescription unlocks the debugging mode.
    public var isDebug = false

    public init(patient: PrescriptionDocument.Patient, audiogramFile: String? = nil) {
        self.patient = patient
        self.audiogramFile = audiogramFile
    }

    /// The signed prescription, its text and its code.
    public struct Signed: Sendable {
        public let document: PrescriptionDocument
        public let text: String
        public let code: QRCode
    }

    public func sign(with signingKey: AudiologistSigningKey, now: Date = Date(),
                     askAudiogram: () throws -> Audiogram) throws -> Signed {
        var fittingRule = FittingRule.fig6, maximum = 100, levelReference = LevelReference.band
        let audiogramValue: Audiogram
        if let audiogramFile, audiogramFile.lowercased().hasSuffix(".json") {
            let document = try AudiogramDocument.load(from: URL(fileURLWithPath: audiogramFile))
            audiogramValue = try document.audiogram()
            let options = try document.fittingOptions()
            fittingRule = options.rule
            maximum = Int(options.maximumOutputSPL.rounded())
            levelReference = options.levelReference
        } else if let audiogramFile {
            guard let bytes = FileManager.default.contents(atPath: audiogramFile) else {
                throw PrescriptionError.unreadableAudiogramFile(path: audiogramFile)
            }
            guard let text = String(bytes: bytes, encoding: .utf8) else {
                throw PrescriptionError.audiogramFileNotText(path: audiogramFile)
            }
            audiogramValue = try AudiogramCSV.parse(text)
        } else {
            audiogramValue = try askAudiogram()
        }
        if let rule { fittingRule = try FittingRule(named: rule) }
        if let maximumOutputSPL { maximum = maximumOutputSPL }
        let programList = try programs.map { try $0.split(separator: ",").map { try ListeningProgram(named: String($0)) } }
            ?? ListeningProgram.allCases
        let document = try PrescriptionDocument(
            kind: isDebug ? .debug : .fitting, patient: patient, audiologist: signingKey.audiologist, issued: now,
            expires: trialDays.map { now.addingTimeInterval(TimeInterval($0) * 86_400) },
            audiogram: audiogramValue, rule: fittingRule, levelReference: levelReference,
            maximumOutputSPL: maximum, programs: programList)
        let text = try signingKey.sign(document)
        return Signed(document: document, text: text, code: try QRCode(encoding: text))
    }
}

extension QRCode {
    /// Writes PREFIX.png and PREFIX.svg, mode 0600 like `rx export`: the code decodes to the
    /// patient's name, number, birth year and audiogram. Both or neither: a PNG without its SVG
    /// (disk full) would look like a finished prescription.
    public func writePrivately(prefix: String) throws {
        let png = URL(fileURLWithPath: prefix + ".png"), svg = URL(fileURLWithPath: prefix + ".svg")
        try PrivateFile.write(pngData(), to: png)
        do { try PrivateFile.write(Data(self.svg().utf8), to: svg) } catch {
            try? FileManager.default.removeItem(at: png)
            throw error
        }
    }
}

extension Audiogram {
    /// Thresholds typed at a terminal (`assist rx create` without an audiogram file), ear by ear and
    /// frequency by frequency: `prompt` shows the question (`newline` false: the answer follows on
    /// the same line), `readLine` gives the answer (nil: input ended). An empty answer skips a
    /// frequency (it is interpolated); anything that is not a number is refused by name.
    public static func typedIn(prompt: (_ text: String, _ newline: Bool) -> Void, readLine: () -> String?) throws -> Audiogram {
        func ask(_ ear: Ear) throws -> EarAudiogram {
            prompt("\(ear.name.capitalized) ear: threshold in dB HL at each frequency (Enter to skip).", true)
            var thresholds: [Double: Double] = [:]
            for f in AudiometricFrequency.all {
                prompt("  \(Int(f)) Hz: ", false)
                guard let line = readLine()?.trimmingCharacters(in: .whitespaces) else { break }
                if line.isEmpty { continue }
                guard let value = Double(line) else { throw PrescriptionError.notAThreshold(line) }
                thresholds[f] = value
            }
            return try EarAudiogram(ear: ear, thresholdsHL: thresholds)
        }
        return Audiogram(left: try ask(.left), right: try ask(.right))
    }
}
