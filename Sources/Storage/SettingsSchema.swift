import AssistCore
import Foundation

/// What kind of value a setting takes; it words the "allowed" half of every error message.
public enum SettingKind: Sendable {
    case number(ClosedRange<Double>, unit: String?)
    case wholeNumber(ClosedRange<Int>, unit: String?)
    case onOff
    /// One of the names; `aliases` maps other accepted names to one of them.
    case choice([String], aliases: [String: String] = [:])
    /// Free text such as a voice or device name: 1 to 100 characters, no control characters.
    case name
    /// A BCP 47 tag such as en, en-GB or pt-BR.
    case languageTag
    /// A list of detector categories or groups.
    case categories
    /// A list of hazard rules.
    case hazards

    /// The allowed values in words, completing "The setting X must be …".
    public var allowed: String {
        switch self {
        case .number(let range, let unit):
            return "a number from \(numberText(range.lowerBound)) to \(numberText(range.upperBound))\(unit.map { " \($0)" } ?? "")"
        case .wholeNumber(let range, let unit):
            return "a whole number from \(range.lowerBound) to \(range.upperBound)\(unit.map { " \($0)" } ?? "")"
        case .onOff: return "on or off"
        case .choice(let options, _): return "one of \(options.joined(separator: ", "))"
        case .name: return "a name of 1 to 100 characters"
        case .languageTag: return "a language tag such as en or en-GB"
        case .categories: return "a comma-separated list of detector categories or groups (people, vehicles, animals, furniture)"
        case .hazards:
            return "a comma-separated list of category:tone:intensity, with tone one of \(HazardTone.allCases.map(\.rawValue).joined(separator: ", ")) and intensity from 0 to 1"
        }
    }
}


/// One setting: its dotted name, its name for people, what it does, what it accepts, and where it
/// lives in `Settings`.
public struct SettingDefinition: Sendable {
    /// The dotted name scripts and `assist settings set` use: "speech.pitch".
    public let key: String
    /// What people call it, on the Settings page and in `assist settings show`: "Pitch".
    public let label: String
    public let help: String
    public let kind: SettingKind
    let read: @Sendable (Settings) -> JSONValue
    let write: @Sendable (inout Settings, JSONValue) throws -> Void

    /// The value's allowed form, in words.
    public var allowed: String { kind.allowed }

    /// The allowed form where the store's validator narrows it: a language, only those the
    /// sentences are written in (the web app's form, `assist settings show`, and the refusal).
    public func allowed(by validator: SettingsValidator?) -> String {
        if case .languageTag = kind, let languages = validator?.languages {
            return "one of \(languages.joined(separator: ", ")) (the languages sentences are written in)"
        }
        return allowed
    }

    /// The help of a command-line option that stands in for this setting for one run:
    /// "`what`: a number from 0.05 to 0.95 (default: the stored setting, 0.6)."
    public func optionHelp(_ what: String) -> String {
        "\(what): \(allowed) (default: the stored setting, \(value(in: .defaults).displayText))."
    }

    /// This setting's value in `settings`.
    public func value(in settings: Settings) -> JSONValue { read(settings) }

    /// Turns command-line text into a JSON value of this setting's kind. Text that is not of the
    /// kind is kept as a string, so `validate` reports it as the wrong type with the field named.
    public func parse(text: String) -> JSONValue {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch kind {
        case .number, .wholeNumber:
            return Double(trimmed).map(JSONValue.number) ?? .string(text)
        case .onOff:
            switch trimmed.lowercased() {
            case "on", "true", "yes", "1": return .bool(true)
            case "off", "false", "no", "0": return .bool(false)
            default: return .string(text)
            }
        case .categories:
            if trimmed.hasPrefix("["), let json = try? JSONValue(jsonText: trimmed) { return json }
            if trimmed.isEmpty || trimmed.lowercased() == "none" { return .array([]) }
            return .array(trimmed.split(separator: ",").map { .string($0.trimmingCharacters(in: .whitespaces)) })
        case .hazards:
            if trimmed.hasPrefix("["), let json = try? JSONValue(jsonText: trimmed) { return json }
            if trimmed.isEmpty || trimmed.lowercased() == "none" { return .array([]) }
            return .array(trimmed.split(separator: ",").map { entry in
                let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                var rule: [String: JSONValue] = ["category": .string(parts[0])]
                if parts.count > 1 { rule["tone"] = .string(parts[1]) }
                if parts.count > 2 { rule["intensity"] = Double(parts[2]).map(JSONValue.number) ?? .string(parts[2]) }
                return .object(rule)
            })
        case .choice, .name, .languageTag:
            return .string(trimmed)
        }
    }

    /// Checks `value` against this setting's kind and returns it normalised (lower-cased
    /// choices, groups expanded, duplicates dropped). Categories are checked against
    /// `validator`'s names; with no validator (reading back stored rows) they are only normalised.
    public func validate(_ value: JSONValue, validator: SettingsValidator?) throws -> JSONValue {
        let refused = StorageError.invalidSetting(key: key, allowed: allowed(by: validator), given: value.jsonText)
        switch kind {
        case .number(let range, _):
            guard case .number(let number) = value, number.isFinite, range.contains(number) else { throw refused }
            return value
        case .wholeNumber(let range, _):
            // Compared as Doubles: Int(number) traps beyond Int's range (1e19 crashed `settings set`).
            guard case .number(let number) = value, number.isFinite, number.rounded() == number,
                  Double(range.lowerBound) <= number, number <= Double(range.upperBound) else { throw refused }
            return value
        case .onOff:
            guard case .bool = value else { throw refused }
            return value
        case .choice(let options, let aliases):
            guard case .string(let text) = value else { throw refused }
            let name = text.trimmingCharacters(in: .whitespaces).lowercased()
            if let canonical = aliases[name] { return .string(canonical) }
            guard options.contains(name) else {
                throw StorageError.invalidSetting(key: key, allowed: allowed + Self.hint(text, options), given: value.jsonText)
            }
            return .string(name)
        case .name:
            guard case .string(let text) = value else { throw refused }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard (1...100).contains(trimmed.count),
                  !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else { throw refused }
            return .string(trimmed)
        case .languageTag:
            guard case .string(let text) = value else { throw refused }
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }),
                  parts.dropFirst().allSatisfy({ (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
            else { throw refused }
            if let languages = validator?.languages, !languages.contains(first.lowercased()) {
                throw StorageError.invalidSetting(key: key, allowed: allowed(by: validator), given: value.jsonText)
            }
            return .string(text)
        case .categories:
            let names: [JSONValue]
            switch value {
            case .array(let items): names = items
            case .string: names = [value]
            default: throw refused
            }
            var result: [String] = []
            for item in names {
                guard case .string(let name) = item, !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw refused }
                let expanded = try validator?.categories(named: name, forKey: key)
                    ?? [name.trimmingCharacters(in: .whitespaces).lowercased()]
                for category in expanded where !result.contains(category) { result.append(category) }
            }
            return .array(result.map(JSONValue.string))
        case .hazards:
            guard case .array(let items) = value else { throw refused }
            var rules: [HazardRule] = []
            for item in items {
                guard case .object(let fields) = item, case .string(let category)? = fields["category"] else { throw refused }
                guard case .string(let toneName)? = fields["tone"], let tone = HazardTone(rawValue: toneName.lowercased()) else {
                    throw StorageError.invalidSetting(key: key + " tone", allowed: "one of " + HazardTone.allCases.map(\.rawValue).joined(separator: ", "),
                                                      given: fields["tone"]?.jsonText ?? "a missing tone")
                }
                guard case .number(let intensity)? = fields["intensity"], intensity.isFinite, (0...1).contains(intensity) else {
                    throw StorageError.invalidSetting(key: key + " intensity", allowed: "a number from 0 to 1",
                                                      given: fields["intensity"]?.jsonText ?? "a missing intensity")
                }
                let categories = try validator?.categories(named: category, forKey: key) ?? [category.lowercased()]
                for name in categories {
                    rules.removeAll { $0.category == name }
                    rules.append(HazardRule(category: name, tone: tone, intensity: intensity))
                }
            }
            return JSONValue(encoding: rules)
        }
    }

    private static func hint(_ text: String, _ options: [String]) -> String {
        let close = EditDistance.closest(to: text.lowercased(), among: options, limit: 1)
        return close.isEmpty ? "" : " (did you mean \(close[0])?)"
    }
}

/// Every setting, by dotted name. Adding a setting is one entry here (key, label, help, kind, field)
/// plus its field in `Settings`.
public enum SettingsSchema {
    public static let definitions: [SettingDefinition] = [
        confidenceThreshold,
        iouThreshold,
        field("detection.maximumObjects", "Most objects announced", "The most objects announced at once.",
              .wholeNumber(1...20, unit: nil), \.detection.maximumObjects),
        field("detection.prioritisedCategories", "Announced first", "Categories announced before all others.",
              .categories, \.detection.prioritisedCategories),
        field("detection.ignoredCategories", "Never announced", "Categories never announced.",
              .categories, \.detection.ignoredCategories),
        field("detection.hazardAlerts", "Hazard alerts", "Whether the hazard categories below sound their warning tones.",
              .onOff, \.detection.hazardAlerts),
        field("detection.hazards", "Hazard warnings", "Categories that sound a warning tone, with the tone and its intensity.",
              .hazards, \.detection.hazards),
        field("speech.voice", "Voice", "natural: a natural English voice (Piper's joe, slower to start, no pitch control; "
              + "fine-tuned from a voice whose training data has a more restrictive licence); fast: espeak-ng's English; "
              + "or an espeak-ng voice such as en-us or fr-fr (docs/VOICES.md lists them all with their licences).",
              .name, \.speech.voice),
        field("speech.language", "Language", "The language of sentences and voice commands.",
              .languageTag, \.speech.language),
        field("speech.rateWordsPerMinute", "Speaking rate", "Speaking rate.",
              .wholeNumber(SpeechLimits.rateWordsPerMinute, unit: "words per minute"), \.speech.rateWordsPerMinute),
        field("speech.pitch", "Pitch", "Voice pitch (espeak-ng's scale, 50 is normal).",
              .wholeNumber(SpeechLimits.pitch, unit: nil), \.speech.pitch),
        // The floor is 10 %, not 0: silent speech would leave a blind user with no output at all.
        field("speech.volumePercent", "Speech volume", "Speech volume.",
              .wholeNumber(SpeechLimits.volumePercent, unit: "percent"), \.speech.volumePercent),
        field("feedback.hapticsEnabled", "Vibration", "Vibration feedback.",
              .onOff, \.feedback.hapticsEnabled),
        field("feedback.hapticStrength", "Vibration strength", "Vibration strength.",
              .number(0...1, unit: nil), \.feedback.hapticStrength),
        field("feedback.spatialAudio", "Directional tones", "Tones panned toward where the object is.",
              .onOff, \.feedback.spatialAudio),
        field("scanning.mode", "Scanning mode", "When the scene is described.",
              .choice(Mode.startable.map(\.name), aliases: Mode.aliasNames), \.scanning.mode),
        field("scanning.intervalSeconds", "Time between scans", "Time between scans in continuous and navigation modes.",
              .number(0.2...10, unit: "seconds"), \.scanning.intervalSeconds),
        field("batterySaver", "Battery saver", "Scan less often to save battery.",
              .onOff, \.batterySaver),
        field("camera.device", "Camera", "The camera: default, a device such as /dev/video0, or an FFmpeg input.",
              .name, \.camera.device),
        fieldOfView,
        field("units", "Distance units", "Units for spoken distances.",
              .choice(MeasurementUnits.allCases.map(\.rawValue), aliases: MeasurementUnits.aliasNames), \.units),
        // Up to 30 days: history is for "what did I just pass", not a long-term log.
        field("historyRetentionHours", "Keep history for", "How long announced detections are kept.",
              .number(1...720, unit: "hours"), \.historyRetentionHours),
    ]

    // The settings that `assist see`'s options also set: their ranges and defaults are these.
    public static let confidenceThreshold = field(
        "detection.confidenceThreshold", "Confidence threshold", "Detections less certain than this are not announced.",
        .number(VisionLimits.confidenceThreshold, unit: nil), \.detection.confidenceThreshold)
    public static let iouThreshold = field(
        "detection.iouThreshold", "Overlap threshold", "Boxes overlapping more than this (intersection over union) count as one object.",
        .number(VisionLimits.iouThreshold, unit: nil), \.detection.iouThreshold)
    public static let fieldOfView = field(
        "camera.fieldOfViewDegrees", "Camera field of view", "The camera's horizontal field of view, for directions.",
        .number(VisionLimits.fieldOfViewDegrees, unit: "degrees"), \.camera.fieldOfViewDegrees)

    private static let byKey: [String: SettingDefinition] =
        Dictionary(uniqueKeysWithValues: definitions.map { ($0.key.lowercased(), $0) })

    /// The definition for `key` (case-insensitive), or an error suggesting the closest names.
    public static func definition(for key: String) throws -> SettingDefinition {
        if let definition = byKey[key.lowercased()] { return definition }
        let keys = definitions.map(\.key)
        // "speech.rate" → speech.rateWordsPerMinute: a name typed without its unit is a closer
        // match than any name a few edits away, so names containing it come first.
        let containing = keys.filter { $0.lowercased().contains(key.lowercased()) }
        let nearby = EditDistance.closest(to: key, among: keys).filter { !containing.contains($0) }
        throw StorageError.unknownSetting(key: key, suggestions: Array((containing + nearby).prefix(3)))
    }

    /// Checks the rules that span settings: a category cannot be both prioritised and ignored,
    /// and a hazard cannot be ignored (that would silence a warning the user asked for).
    public static func checkConsistency(_ settings: Settings) throws {
        let ignored = Set(settings.detection.ignoredCategories)
        if let both = settings.detection.prioritisedCategories.first(where: ignored.contains) {
            throw StorageError.conflictingSettings(keys: ["detection.prioritisedCategories", "detection.ignoredCategories"],
                                                   reason: "\(both) cannot be both prioritised and ignored")
        }
        if let hazard = settings.detection.hazards.first(where: { ignored.contains($0.category) }) {
            throw StorageError.conflictingSettings(keys: ["detection.hazards", "detection.ignoredCategories"],
                                                   reason: "\(hazard.category) is a hazard and cannot be ignored")
        }
    }

    private static func field<Value: Codable & Sendable>(
        _ key: String, _ label: String, _ help: String, _ kind: SettingKind, _ path: WritableKeyPath<Settings, Value> & Sendable
    ) -> SettingDefinition {
        SettingDefinition(key: key, label: label, help: help, kind: kind,
                          read: { JSONValue(encoding: $0[keyPath: path]) },
                          write: { settings, value in settings[keyPath: path] = try value.decoded(as: Value.self) })
    }
}

/// One setting as `assist settings show` prints it (and `--json` writes it).
public struct SettingEntry: Encodable, Sendable {
    public var key: String
    public var label: String
    public var value: JSONValue
    public var defaultValue: JSONValue
    public var changed: Bool
    public var allowed: String
    public var help: String

    enum CodingKeys: String, CodingKey { case key, label, value, defaultValue = "default", changed, allowed, help }

    /// `validator`: the store's, so the allowed values are the ones it accepts (`allowed(by:)`).
    public init(_ definition: SettingDefinition, in settings: Settings, validator: SettingsValidator? = nil) {
        key = definition.key
        label = definition.label
        value = definition.value(in: settings)
        defaultValue = definition.value(in: .defaults)
        changed = value != defaultValue
        allowed = definition.allowed(by: validator)
        help = definition.help
    }

    /// Two lines for people: the key (first, for scripts that read it) and value (and the default
    /// when changed), then its name, what it does and what it accepts.
    public var description: String {
        "\(key) = \(value.displayText)\(changed ? "  (changed; default \(defaultValue.displayText))" : "")\n"
            + "    \(label): \(help) Allowed: \(allowed)."
    }
}

extension JSONValue {
    /// Text for people: a name without JSON's quotes, anything else as compact JSON.
    public var displayText: String {
        if case .string(let text) = self { return text }
        return jsonText
    }
}
