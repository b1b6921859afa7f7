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
public struct GuidancePolicy: Sendable {
    public private(set) var mode: GuidanceMode
    public var settings: GuidanceSettings
    public var describer: SceneDescriber

    public init(mode: GuidanceMode, settings: GuidanceSettings = GuidanceSettings(), describer: SceneDescriber) {
        self.mode = mode
        self.settings = settings
        self.describer = describer
    }

    /// Whether the loop should compute the class-free corridor cue (costly) for the next frames.
    public var wantsCorridor: Bool {
        if case .navigate = mode { return true }
        return false
    }

    /// Switches mode; returns the confirmation to say ("Scene navigation on.").
    public mutating func setMode(_ newMode: GuidanceMode, atSeconds time: Double) -> [Announcement] {
        mode = newMode
        return []  // filled in by the policies work (#4)
    }

    /// Remembers a request; it is answered from the next observation.
    public mutating func handle(_ request: PolicyRequest, atSeconds time: Double) -> [Announcement] {
        []  // filled in by the policies work (#4)
    }

    /// What to say for one analysed frame, in order of importance.
    public mutating func announcements(for observation: SceneObservation) -> [Announcement] {
        []  // filled in by the policies work (#4)
    }
}
