/// The ways the vision assistant works. One definition: the stored name (settings, the usage
/// statistics, `--mode`), the name said to the user, and whether a session can start in it.
/// What a mode does is its policy in LiveGuidance (`GuidancePolicy`); what selects it by voice is
/// `CommandIntent.mode` in Commands.
public enum Mode: String, CaseIterable, Codable, Sendable, NamedChoice {
    /// New objects, objects that came markedly closer, and hazards.
    case continuous
    /// Nothing until "scan now", then one full description of the newest frame.
    case onDemand = "on-demand"
    /// On request, a summary of the most relevant objects, closest first.
    case explore
    /// Obstacles and hazards on the path ahead.
    case navigate
    /// One category, guided by direction and distance until found.
    case find
    /// The light detector: a tone whose pitch follows the brightness of the view.
    case light

    /// The stored and typed name ("on-demand").
    public var name: String { rawValue }

    /// The mode as a sentence names it: "Today you used continuous detection for 5 minutes".
    public var spokenName: String {
        switch self {
        case .continuous: "continuous detection"
        case .onDemand: "on-demand detection"
        case .explore: "explore"
        case .navigate: "navigation"
        case .find: "find"
        case .light: "the light detector"
        }
    }

    /// A session can start in every mode but find, which needs something to look for.
    public var canStart: Bool { self != .find }

    /// The modes a session can start in, for `--mode` and the settings.
    public static let startable = allCases.filter(\.canStart)

    /// Names stored before the names were one ("navigation").
    public static let aliases: [String: Mode] = ["navigation": .navigate]

    /// Settings written with an alias still read.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let mode = Mode(name: name) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown mode \(name)"))
        }
        self = mode
    }
}
