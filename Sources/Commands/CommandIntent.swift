import AssistCore

/// What a command asks for, independent of the words used. The raw value is the intent's key in
/// the language files (`Languages/<language>.json`), so every language names the same intents.
public enum CommandIntent: String, CaseIterable, Sendable, Codable {
    // The live session.
    case startDetection, stopDetection
    case scanNow, describeAhead, exploreScene, checkObstacles
    case continuousMode, onDemandMode, navigationMode, lightMode
    case find, findAhead
    case switchCamera
    case repeatLast, stopTalking, more, exit
    // Settings.
    case prioritise, ignore, stopIgnoring, enableAlert, loudTone, setConfidence
    case volumeUp, volumeDown, changeSpeechSpeed, setSpeechRate, speakFaster, speakSlower
    /// Absolute and extreme values: "set volume to 50 percent", "maximum volume", "fastest speech".
    case setVolume, maximumVolume, minimumVolume, fastestSpeech, slowestSpeech
    /// The confidence threshold one step down ("be less picky") or up ("only tell me when you're sure").
    case lowerConfidence, raiseConfidence
    case useNaturalVoice, useFastVoice
    /// Asked for by the voice's sex: answered with what the two voices are, never another voice chosen silently.
    case useFemaleVoice, useMaleVoice
    case useMetricUnits, useImperialUnits
    /// The hazard warning tones as a whole (the one setting `detection.hazardAlerts`).
    case enableHazardAlerts, disableHazardAlerts
    case changeLanguage
    case enableHaptics, disableHaptics, enableBatterySaver, disableBatterySaver
    // Reports.
    case recentDetections, usageStats, help, tutorial, listCategories
    /// Questions about the session's state, answered from it in one sentence.
    case askMode, askVolume, askFindTarget, askHazardAlerts
    // Reading and looking closely (understood; carried out once the reading pipeline exists).
    case readText, readPage, describeColour, checkLight, countFaces
    // Questions about the things in view, answered from what was measured in the frame (issue 38).
    case countThings, isThereThing, whereIsThing, howFarThing, colourOfThing, textOnThing, whatIsClosest, whatIsOnLeft, whatIsOnRight
    /// A question the picture cannot answer ("what's his name", "how old is she"): said so, never guessed.
    case cannotTell

    /// The mode this intent switches to, if it does: the one place a mode is tied to what selects
    /// it by voice. ("Explore the scene" is a one-off summary in the current mode, not a switch.)
    public var mode: Mode? {
        switch self {
        case .continuousMode: .continuous
        case .onDemandMode: .onDemand
        case .navigationMode: .navigate
        case .lightMode: .light
        case .find, .findAhead: .find
        default: nil
        }
    }

    /// The slot a phrase of this intent must fill, if any: a phrase file cannot give `find`
    /// a number, and the matcher refuses a phrase whose slot does not fit.
    public var slot: SlotKind? {
        switch self {
        case .find, .findAhead, .countThings, .isThereThing, .whereIsThing, .howFarThing, .colourOfThing, .textOnThing: return .category
        case .prioritise, .ignore, .stopIgnoring, .enableAlert, .loudTone: return .categories
        case .setConfidence, .setVolume: return .fraction
        case .setSpeechRate: return .number
        case .changeLanguage: return .language
        default: return nil
        }
    }
}

/// The kinds of value a phrase can carry, written `{category}`, `{categories}`, … in patterns.
public enum SlotKind: String, CaseIterable, Sendable, Codable {
    /// One category or group: "a chair", "vehicles".
    case category
    /// One or more categories or groups: "cars and people", "vehicles".
    case categories
    /// A proportion from 0 to 1, said as "0.5", "zero point five" or "fifty percent".
    case fraction
    /// A plain number: "200", "two hundred".
    case number
    /// A language by name: "French".
    case language
}

/// Sentences the layer carrying out commands needs beyond confirmations, named here so a
/// language file missing one fails when loaded.
public enum ControlSentence: String, CaseIterable, Sendable {
    /// "{plural} warn of danger, so they are still announced." (a hazard cannot be ignored)
    case hazardStillAnnounced
    /// "Settings cannot be changed now: {reason}"
    case settingsUnavailable
    /// "{minimum}" and "{maximum}" in percent.
    case confidenceRange
    /// "{minimum}" and "{maximum}" in words per minute.
    case rateRange
    /// "That could not be changed: {reason}"
    case notChanged
    /// "{plural} are announced first, so they are not ignored." (a prioritised category cannot be ignored)
    case prioritisedStillAnnounced
    /// "{minimum}" and "{maximum}" in percent.
    case volumeRange
    /// "{percent}": the threshold, already at the lowest (or highest) of its range.
    case confidenceAtMinimum, confidenceAtMaximum
    /// "{language}": a language no sentences are written in yet; "{available}": the ones there are.
    case languageNotAvailable
    /// Said at start when the stored language has no sentences written (stored before such a
    /// language was refused, or by another version): "{language}" it, "{available}" the one spoken.
    case storedLanguageNotAvailable
    /// Said before the speech recogniser's first start after installation, which takes some seconds.
    case preparingSpeechRecognition
    /// Said for "what am I looking for" when not in find mode.
    case notFinding
    /// The answer to "are hazard alerts on" when they are off.
    case hazardAlertsAreOff
    /// Several commands in one line, not all understood: nothing done. "{understood}": the ones that were.
    case severalNotAllUnderstood
    /// Several commands in one line, one of which must be confirmed first: nothing done.
    case severalNeedConfirmation
}
