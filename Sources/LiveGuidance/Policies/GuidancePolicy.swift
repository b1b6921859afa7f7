import AssistCore
import Guidance
import Perception
import Speech

/// Tunables of the policies that are not description settings.
public struct GuidanceSettings: Sendable, Equatable {
    /// Hazard categories, each with its tone and loudness (from the stored hazard rules).
    public var hazards: [String: HazardAlert]
    /// Inside this distance the obstacle tone changes (the user's proximity threshold).
    public var proximityWarningMeters: Double
    /// Find mode gives up after this long without finding ("No chair found.").
    public var findTimeoutSeconds: Double
    /// Scene exploration mentions at most this many objects.
    public var exploreMaximumObjects: Int

    public init(hazards: [String: HazardAlert] = GuidanceSettings.standardHazards,
                proximityWarningMeters: Double = 1.0, findTimeoutSeconds: Double = 60, exploreMaximumObjects: Int = 5) {
        self.hazards = hazards
        self.proximityWarningMeters = proximityWarningMeters
        self.findTimeoutSeconds = findTimeoutSeconds
        self.exploreMaximumObjects = exploreMaximumObjects
    }

    public static let standardHazards: [String: HazardAlert] = [
        "car": HazardAlert(earcon: .vehicleHazard, intensity: 0.8),
        "bus": HazardAlert(earcon: .vehicleHazard, intensity: 0.8),
        "truck": HazardAlert(earcon: .vehicleHazard, intensity: 0.8),
        "motorcycle": HazardAlert(earcon: .vehicleHazard, intensity: 0.8),
        "bicycle": HazardAlert(earcon: .vehicleHazard, intensity: 0.6),
    ]
}

/// How one hazard category is signalled.
public struct HazardAlert: Sendable, Equatable {
    public var earcon: Earcon
    /// 0 silent … 1 loudest.
    public var intensity: Double
    public init(earcon: Earcon, intensity: Double) {
        self.earcon = earcon
        self.intensity = intensity
    }

    /// A stored hazard rule's tone, by its name in the settings (`detection.hazards`), as the
    /// earcon that is heard: the rule decides the sound, not the category. "pulse" and "siren"
    /// are the two-tone alternation, "chirp" the sweep, "beep" the three pips; nil for a name
    /// the settings do not have.
    public init?(toneName: String, intensity: Double) {
        switch toneName {
        case "pulse", "siren": self.init(earcon: .vehicleHazard, intensity: intensity)
        case "chirp": self.init(earcon: .dropHazard, intensity: intensity)
        case "beep": self.init(earcon: .obstacleHazard, intensity: intensity)
        default: return nil
        }
    }
}

/// Requests a policy answers from the next observation.
public enum PolicyRequest: Sendable, Equatable {
    case scanNow
    case explore
    case checkObstacles
}

/// The seam between the live loop and the modes: the loop feeds observations and requests, the
/// policy returns what to say. Pure logic: no clock, no audio, no camera — testable with
/// made-up observations.
///
/// Composed of one policy per mode (Continuous, Navigation, Find; on-demand and exploration are
/// answers from `SceneSnapshot`) plus the hazard policy, which runs in every mode and goes first.
public struct GuidancePolicy: Sendable {
    public private(set) var mode: GuidanceMode
    public var settings: GuidanceSettings
    public var describer: SceneDescriber {
        didSet { speech = SpokenObjects(describer: describer, phrases: phrases) }
    }
    /// The modes' own sentences ("Path clear.", "No chair found.").
    public let phrases: ModePhrases

    private var speech: SpokenObjects
    private var hazards = HazardPolicy()
    private var continuous = ContinuousPolicy()
    private var navigation = NavigationPolicy()
    private var finding: FindPolicy?
    private var viewNotice = ViewConditionNotice()
    /// Requests waiting for the next observation, in the order they came.
    private var pending: [PolicyRequest] = []
    /// The mode find returns to when it ends.
    private var modeBeforeFind: GuidanceMode = .continuous

    /// With the modes' sentences shipped for the describer's language (English when it has none).
    public init(mode: GuidanceMode, settings: GuidanceSettings = GuidanceSettings(), describer: SceneDescriber) {
        do {
            try self.init(mode: mode, settings: settings, describer: describer,
                          phrases: ModePhrases.bundled(language: describer.phrasebook.language))
        } catch {
            // en.modes.json is a resource of this module; a test loads it, so only a broken
            // installation gets here.
            preconditionFailure("LiveGuidance is installed without Templates/en.modes.json: \(error)")
        }
    }

    public init(mode: GuidanceMode, settings: GuidanceSettings = GuidanceSettings(), describer: SceneDescriber,
                phrases: ModePhrases) {
        self.mode = .continuous
        self.settings = settings
        self.describer = describer
        self.phrases = phrases
        speech = SpokenObjects(describer: describer, phrases: phrases)
        _ = setMode(mode, atSeconds: 0)
    }

    /// Whether the loop should compute the class-free corridor cue (costly) for the next frames:
    /// in navigation, and for a pending "are there any obstacles?".
    public var wantsCorridor: Bool {
        if case .navigate = mode { return true }
        return pending.contains(.checkObstacles)
    }

    /// Switches mode; returns the confirmation to say ("Scene navigation on.").
    public mutating func setMode(_ newMode: GuidanceMode, atSeconds time: Double) -> [Announcement] {
        if case .find = mode {} else { modeBeforeFind = mode }
        mode = newMode
        viewNotice.reset()
        finding = nil
        let sentence: String
        switch newMode {
        case .continuous: sentence = phrases.modeOn.continuous
        case .onDemand: sentence = phrases.modeOn.onDemand
        case .explore:
            sentence = phrases.modeOn.explore
            // Entering exploration is itself the first request for a summary.
            if !pending.contains(.explore) { pending.append(.explore) }
        case .navigate:
            sentence = phrases.modeOn.navigate
            navigation.reset()
        case .light:
            sentence = phrases.modeOn.light
        case .find(let target):
            finding = FindPolicy(target: target, startedSeconds: time)
            // "Is there a person ahead?" is answered by the next frame; a confirmation first would only delay it.
            guard !target.aheadOnly else { return [] }
            sentence = SentenceFiles.fill(phrases.modeOn.find, ["targetPlural": speech.plural(of: target)])
        }
        // The user asked for the change: its confirmation is an answer, heard even behind a backlog.
        return [Announcement(Utterance(sentence, priority: .answer, contentKey: "mode@\(time)"))]
    }

    /// An announcement with this content key was taken out of the queue before it was heard
    /// because the channel was busy: the objects it named, if still in view, are announced again
    /// from the next observation, with where they are then. Returns whether it named any.
    @discardableResult
    public mutating func notHeard(contentKey: String) -> Bool {
        let ids = ContinuousPolicy.trackIDs(inContentKey: contentKey)
        continuous.notHeard(ids)
        return !ids.isEmpty
    }

    /// Whether an announcement with this content key names tracks that `notHeard` can make
    /// unsaid (the continuous mode's object announcements), so that holding it back loses nothing.
    public func announcesAgainWhenNotHeard(contentKey: String) -> Bool {
        !ContinuousPolicy.trackIDs(inContentKey: contentKey).isEmpty
    }

    /// Remembers a request; it is answered from the next observation.
    public mutating func handle(_ request: PolicyRequest, atSeconds time: Double) -> [Announcement] {
        if !pending.contains(request) { pending.append(request) }
        return []
    }

    /// What to say for one analysed frame, in order of importance: hazards first, then answers to
    /// requests, then what the mode has to say.
    public mutating func announcements(for observation: SceneObservation) -> [Announcement] {
        var result = hazards.announcements(for: observation.tracking, settings: settings, speech: speech)

        let snapshot = SceneSnapshot(speech: speech, settings: settings)
        for request in pending {
            switch request {
            case .scanNow: result += snapshot.fullDescription(of: observation)
            case .explore: result.append(snapshot.exploreSummary(of: observation))
            case .checkObstacles: result += NavigationPolicy.answer(for: observation, settings: settings, speech: speech)
            }
        }
        let answered = !pending.isEmpty
        // What a full description or a summary just named is not announced again as new.
        let describedEverything = pending.contains(.scanNow) || pending.contains(.explore)
        let answeredObstacles = pending.contains(.checkObstacles)
        pending = []

        let condition = ViewCondition(observation, describer: describer)
        switch mode {
        case .continuous:
            // An answer already said what the view is like; the episode still counts as begun.
            let notice = viewNotice.notice(for: condition, reportsEmptyView: true, phrases: phrases)
            if !answered, let notice { result.append(notice) }
            var alreadySaid = hazards.announcedTrackIDs
            if describedEverything { alreadySaid.formUnion(observation.tracking.visibleTracks.map(\.id)) }
            result += continuous.announcements(for: observation.tracking, alreadySaid: alreadySaid, speech: speech)
        case .onDemand, .explore, .light:
            break
        case .navigate:
            let notice = viewNotice.notice(for: condition, reportsEmptyView: false, phrases: phrases)
            if !answered, let notice { result.append(notice) }
            // The policy still follows the corridor; its warnings are dropped when the answer to
            // "are there any obstacles?" has just named the same obstacles.
            let warnings = navigation.announcements(for: observation, settings: settings, speech: speech)
            if !answeredObstacles { result += warnings }
        case .find:
            guard var finding else { break }
            if !finding.target.aheadOnly,
               let notice = viewNotice.notice(for: condition, reportsEmptyView: false, phrases: phrases) {
                result.append(notice)
            }
            let (spoken, outcome) = finding.announcements(for: observation, settings: settings, speech: speech)
            result += spoken
            self.finding = finding
            if outcome == .finished {
                mode = modeBeforeFind
                self.finding = nil
                viewNotice.reset()
            }
        }
        return result
    }
}
