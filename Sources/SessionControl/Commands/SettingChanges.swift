import AssistCore
import Commands
import Speech
import Storage

/// What a settings command writes to the settings store, worked out from the current settings:
/// pure, so the rules (a hazard is never ignored, a category is either prioritised or ignored,
/// volume and rate move in fixed steps within their ranges) are in one place.
struct SettingChanges {
    /// One validated store write: a setting's key and its new value.
    struct Write: Equatable {
        var key: String
        var value: JSONValue
    }

    var writes: [Write] = []
    /// Values for the confirmation's placeholders ({volume}, {rate}, {confidence}).
    var values: [String: String] = [:]
    /// Nothing is written, and this sentence says why: the confidence threshold was asked to
    /// move past the end of its range, or a language was asked for that nothing is written in.
    var notWritten: ControlSentence?
    /// Categories the command named that it must leave alone, and why (hazards asked to be ignored).
    var refusedHazards: CategorySelection?
    /// Prioritised categories asked to be ignored: refused as the settings store refuses them.
    var refusedPrioritised: CategorySelection?

    /// Steps: 10 % of volume and 25 words a minute are each just noticeable, so a few steps
    /// reach any level without overshooting.
    static let volumeStepPercent = 10
    static let rateStepWordsPerMinute = 25
    static let volumeRange = SpeechLimits.volumePercent
    static let rateRange = SpeechLimits.rateWordsPerMinute
    /// "Be less picky" moves the threshold by 10 points: from the default 60 % a few steps
    /// reach either end of its range.
    static let confidenceStep = 0.1
    static let confidenceRange = VisionLimits.confidenceThreshold
    /// The tone and loudness a newly alerted category gets, and how loud "a loud tone" is.
    static let newAlert = (tone: HazardTone.pulse, intensity: 0.8)
    static let loudIntensity = 1.0

    /// The writes for `command` given `settings`; nil when the command changes no setting.
    static func changes(for command: Command, in settings: Settings, language: CommandLanguage) -> SettingChanges? {
        var result = SettingChanges()
        let detection = settings.detection
        let named = command.categories?.categories ?? []
        switch command.intent {
        case .prioritise:
            result.write("detection.ignoredCategories", categories: detection.ignoredCategories.filter { !named.contains($0) },
                         unlessEqualTo: detection.ignoredCategories)
            result.write("detection.prioritisedCategories", categories: adding(named, to: detection.prioritisedCategories))
        case .ignore:
            let hazards = Set(detection.hazards.map(\.category))
            // The same protection as `settings set`: a prioritised category is not ignored.
            let prioritised = Set(detection.prioritisedCategories).subtracting(hazards)
            let ignorable = named.filter { !hazards.contains($0) && !prioritised.contains($0) }
            let refused = named.filter(hazards.contains)
            if !refused.isEmpty { result.refusedHazards = language.selection(of: refused) }
            let refusedPrioritised = named.filter(prioritised.contains)
            if !refusedPrioritised.isEmpty { result.refusedPrioritised = language.selection(of: refusedPrioritised) }
            guard !ignorable.isEmpty else { return result }
            result.write("detection.ignoredCategories", categories: adding(ignorable, to: detection.ignoredCategories))
        case .stopIgnoring:
            result.write("detection.ignoredCategories", categories: detection.ignoredCategories.filter { !named.contains($0) })
        case .enableAlert, .loudTone:
            var rules = detection.hazards
            for category in named {
                if let index = rules.firstIndex(where: { $0.category == category }) {
                    if command.intent == .loudTone { rules[index].intensity = loudIntensity }
                } else {
                    rules.append(HazardRule(category: category, tone: newAlert.tone,
                                            intensity: command.intent == .loudTone ? loudIntensity : newAlert.intensity))
                }
            }
            // A hazard cannot be ignored: alerting on a category brings it back.
            result.write("detection.ignoredCategories", categories: detection.ignoredCategories.filter { !named.contains($0) },
                         unlessEqualTo: detection.ignoredCategories)
            result.writes.append(Write(key: "detection.hazards", value: .array(rules.map { rule in
                .object(["category": .string(rule.category), "tone": .string(rule.tone.rawValue), "intensity": .number(rule.intensity)])
            })))
        case .setConfidence:
            guard let number = command.number else { return nil }
            result.writes.append(Write(key: SettingsSchema.confidenceThreshold.key, value: .number(number)))
        case .volumeUp, .volumeDown:
            let step = command.intent == .volumeUp ? volumeStepPercent : -volumeStepPercent
            let volume = min(volumeRange.upperBound, max(volumeRange.lowerBound, settings.speech.volumePercent + step))
            result.writes.append(Write(key: "speech.volumePercent", value: .number(Double(volume))))
            result.values["volume"] = String(volume)
        case .setVolume:
            guard let number = command.number else { return nil }
            // Written as asked: the store refuses a value outside the range, and the refusal says the range.
            let volume = Int((number * 100).rounded())
            result.writes.append(Write(key: "speech.volumePercent", value: .number(Double(volume))))
            result.values["volume"] = String(volume)
        case .maximumVolume, .minimumVolume:
            let volume = command.intent == .maximumVolume ? volumeRange.upperBound : volumeRange.lowerBound
            result.writes.append(Write(key: "speech.volumePercent", value: .number(Double(volume))))
            result.values["volume"] = String(volume)
        case .fastestSpeech, .slowestSpeech:
            let rate = command.intent == .fastestSpeech ? rateRange.upperBound : rateRange.lowerBound
            result.writes.append(Write(key: "speech.rateWordsPerMinute", value: .number(Double(rate))))
            result.values["rate"] = String(rate)
        case .lowerConfidence, .raiseConfidence:
            let current = detection.confidenceThreshold
            let step = command.intent == .raiseConfidence ? confidenceStep : -confidenceStep
            // Whole percents, so that steps from any stored value land on what is said.
            let moved = ((current + step) * 100).rounded() / 100
            let threshold = min(confidenceRange.upperBound, max(confidenceRange.lowerBound, moved))
            if abs(threshold - current) < 0.005 {
                result.notWritten = command.intent == .raiseConfidence ? .confidenceAtMaximum : .confidenceAtMinimum
                result.values["percent"] = String(Int((current * 100).rounded()))
                return result
            }
            result.writes.append(Write(key: SettingsSchema.confidenceThreshold.key, value: .number(threshold)))
            result.values["confidence"] = String(Int((threshold * 100).rounded()))
        case .useMetricUnits, .useImperialUnits:
            let units: MeasurementUnits = command.intent == .useMetricUnits ? .metric : .imperial
            result.writes.append(Write(key: "units", value: .string(units.rawValue)))
        case .enableHazardAlerts, .disableHazardAlerts:
            result.writes.append(Write(key: "detection.hazardAlerts", value: .bool(command.intent == .enableHazardAlerts)))
        case .useFemaleVoice, .useMaleVoice:
            // Two voices, both male (docs/VOICES.md): the answer says so, and nothing is chosen instead.
            return result
        case .speakFaster, .speakSlower:
            let step = command.intent == .speakFaster ? rateStepWordsPerMinute : -rateStepWordsPerMinute
            let rate = min(rateRange.upperBound, max(rateRange.lowerBound, settings.speech.rateWordsPerMinute + step))
            result.writes.append(Write(key: "speech.rateWordsPerMinute", value: .number(Double(rate))))
            result.values["rate"] = String(rate)
        case .setSpeechRate:
            guard let number = command.number else { return nil }
            let rate = Int(number.rounded())
            result.writes.append(Write(key: "speech.rateWordsPerMinute", value: .number(Double(rate))))
            result.values["rate"] = String(rate)
        case .changeSpeechSpeed:
            result.values["rate"] = String(settings.speech.rateWordsPerMinute)
        case .useNaturalVoice, .useFastVoice:
            // The names the voice catalogue knows; a running session speaks with it from its next sentence.
            let voice = command.intent == .useNaturalVoice ? VoiceCatalog.naturalNames[0] : VoiceCatalog.fastName
            result.writes.append(Write(key: "speech.voice", value: .string(voice)))
        case .changeLanguage:
            guard let wanted = command.language else { return nil }
            // Only a language the sentences and the commands are written in: another language's
            // voice reading English sentences would not be what the user asked for.
            let available = SettingsStorageAccess.writtenLanguages()
            guard available.contains(wanted.code) else {
                result.notWritten = .languageNotAvailable
                result.values["language"] = wanted.name
                result.values["available"] = available.map(language.name(ofLanguage:)).joined(separator: ", ")
                return result
            }
            result.writes.append(Write(key: "speech.language", value: .string(wanted.code)))
            // espeak-ng names its voices by language; American English is this product's English.
            result.writes.append(Write(key: "speech.voice", value: .string(wanted.code == "en" ? "en-us" : wanted.code)))
        case .enableHaptics, .disableHaptics:
            result.writes.append(Write(key: "feedback.hapticsEnabled", value: .bool(command.intent == .enableHaptics)))
        case .enableBatterySaver, .disableBatterySaver:
            result.writes.append(Write(key: "batterySaver", value: .bool(command.intent == .enableBatterySaver)))
        default:
            return nil
        }
        return result
    }

    private mutating func write(_ key: String, categories: [String], unlessEqualTo current: [String]? = nil) {
        guard categories != current else { return }
        writes.append(Write(key: key, value: .array(categories.map(JSONValue.string))))
    }

    private static func adding(_ new: [String], to list: [String]) -> [String] {
        list + new.filter { !list.contains($0) }
    }
}
