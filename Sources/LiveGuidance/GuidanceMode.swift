import AssistCore

/// How the assistant decides what to say while frames keep coming. Each mode is a policy over
/// the tracked scene (see `GuidancePolicy`); switching mode never restarts the camera or the model.
public enum GuidanceMode: Sendable, Equatable {
    /// New objects, objects that came markedly closer, and hazards; quiet about what was said.
    case continuous
    /// Nothing until "scan now", then one full description of the newest frame.
    case onDemand
    /// On request, a structured summary: how many objects, then the most relevant, closest first.
    case explore
    /// Obstacles in the walking corridor, from detections and from class-free cues
    /// (depth, or free floor), with warnings that grow as time to collision shrinks.
    case navigate
    /// Only one category (or group), guided by direction and distance until found or timed out.
    case find(FindTarget)
    /// The light detector (as Seeing AI's): a continuous tone whose pitch follows the brightness of
    /// the view, for finding a window or a lamp, or telling whether a light is on. No objects are
    /// detected meanwhile.
    case light

    /// Which of the modes this is (its stored and spoken names).
    public var mode: Mode {
        switch self {
        case .continuous: .continuous
        case .onDemand: .onDemand
        case .explore: .explore
        case .navigate: .navigate
        case .find: .find
        case .light: .light
        }
    }

    /// The stored and typed name ("continuous", "on-demand", "light", …).
    public var name: String { mode.name }

    /// The mode a session starts in; nil for find, which needs something to look for.
    public init?(starting mode: Mode) {
        switch mode {
        case .continuous: self = .continuous
        case .onDemand: self = .onDemand
        case .explore: self = .explore
        case .navigate: self = .navigate
        case .light: self = .light
        case .find: return nil
        }
    }
}

/// What "find a chair" or "is there a person ahead?" looks for.
public struct FindTarget: Sendable, Equatable {
    /// Detector class names that count as found ("vehicles" → car, bus, truck, …).
    public var categories: Set<String>
    /// How the user named it, for sentences ("chair", "vehicles").
    public var spokenName: String
    /// "Is there a person ahead?": a yes/no answer about the walking direction only,
    /// instead of guidance until found.
    public var aheadOnly: Bool

    public init(categories: Set<String>, spokenName: String, aheadOnly: Bool = false) {
        self.categories = categories
        self.spokenName = spokenName
        self.aheadOnly = aheadOnly
    }
}
