/// What this build is, for `assist --version` and anything else that must name it. One place,
/// so a release changes it once.
public enum Release {
    public static let name = "AssistiveKit"
    /// Semantic versioning; raised by the lead at each release.
    public static let version = "0.1.0"
    /// "AssistiveKit 0.1.0", as `assist --version` prints it.
    public static var nameAndVersion: String { "\(name) \(version)" }
}
