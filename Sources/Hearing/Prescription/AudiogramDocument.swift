import Foundation

/// The JSON file a fitting is read from (`assist hear --audiogram FILE`):
///
/// ```json
/// {
///   "rule": "nal-r",
///   "maximumOutputSPL": 100,
///   "calibration": { "inputFullScaleSPL": 110, "outputFullScaleSPL": 110 },
///   "left":  { "thresholds": { "250": 20, "500": 30, "1000": 40, "2000": 55, "4000": 70, "8000": 75 } },
///   "right": { "thresholds": { "250": 25, "500": 30, "1000": 45, "2000": 60, "4000": 70 },
///              "uncomfortable": { "1000": 100, "4000": 105 } }
/// }
/// ```
///
/// Thresholds and uncomfortable levels are dB HL keyed by frequency in Hz (125…8000, standard
/// audiometric frequencies only; missing ones are interpolated). Both ears are required.
/// `rule` (nal-r, nal-rp, half-gain, pogo, fig6; default fig6), `levelReference` ("band", the
/// default, or "speech"; see `LevelReference`), `maximumOutputSPL` (60…111, default 100) and
/// `calibration` (dB SPL of a full-scale sine, default 110/110) are optional.
public struct AudiogramDocument: Codable, Sendable, Equatable {
    public struct EarEntry: Codable, Sendable, Equatable {
        public var thresholds: [String: Double]
        public var uncomfortable: [String: Double]?

        public init(thresholds: [String: Double], uncomfortable: [String: Double]? = nil) {
            self.thresholds = thresholds
            self.uncomfortable = uncomfortable
        }
    }

    public var rule: String?
    /// "band" (default) or "speech": what the targets' input levels refer to.
    public var levelReference: LevelReference?
    public var maximumOutputSPL: Double?
    public var calibration: LevelCalibration?
    public var left: EarEntry?
    public var right: EarEntry?

    public init(rule: String? = nil, maximumOutputSPL: Double? = nil, calibration: LevelCalibration? = nil,
                left: EarEntry?, right: EarEntry?) {
        self.rule = rule
        self.maximumOutputSPL = maximumOutputSPL
        self.calibration = calibration
        self.left = left
        self.right = right
    }

    /// Reads and validates a document; every failure is a `HearingError` naming the problem.
    public static func load(from url: URL) throws -> AudiogramDocument {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw HearingError.unreadableAudiogram(path: url.path, reason: "the file does not exist or cannot be opened")
        }
        do {
            return try JSONDecoder().decode(AudiogramDocument.self, from: data)
        } catch DecodingError.dataCorrupted {
            throw HearingError.unreadableAudiogram(path: url.path, reason: "it is not valid JSON")
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw HearingError.unreadableAudiogram(path: url.path, reason: "the field “\(field)” has the wrong type (levels are numbers in dB HL)")
        } catch DecodingError.keyNotFound(let key, _) {
            throw HearingError.unreadableAudiogram(path: url.path, reason: "the field “\(key.stringValue)” is missing")
        }
    }

    public func audiogram() throws -> Audiogram {
        func ear(_ entry: EarEntry?, _ ear: Ear) throws -> EarAudiogram {
            guard let entry, !entry.thresholds.isEmpty else { throw HearingError.missingEar(ear) }
            return try EarAudiogram(ear: ear, thresholdsHL: try Self.frequencies(entry.thresholds),
                                    uncomfortableLevelsHL: try Self.frequencies(entry.uncomfortable ?? [:]))
        }
        return Audiogram(left: try ear(left, .left), right: try ear(right, .right))
    }

    public func fittingOptions(ruleOverride: FittingRule? = nil) throws -> FittingOptions {
        var options = FittingOptions()
        if let rule { options.rule = try FittingRule(named: rule) }
        if let ruleOverride { options.rule = ruleOverride }
        if let maximumOutputSPL { options.maximumOutputSPL = maximumOutputSPL }
        if let levelReference { options.levelReference = levelReference }
        return options
    }

    public func prescription(ruleOverride: FittingRule? = nil) throws -> Prescription {
        try Prescription(audiogram: try audiogram(), options: try fittingOptions(ruleOverride: ruleOverride))
    }

    static func frequencies(_ table: [String: Double]) throws -> [Double: Double] {
        var result: [Double: Double] = [:]
        for (key, value) in table {
            let trimmed = key.lowercased().replacingOccurrences(of: "hz", with: "").trimmingCharacters(in: .whitespaces)
            guard let f = Double(trimmed), f.isFinite else { throw HearingError.notAFrequency(key) }
            result[f] = value
        }
        return result
    }
}
