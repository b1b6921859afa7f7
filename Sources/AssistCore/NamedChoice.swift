/// A choice among a few names (a mode, the units), with other names users also say for them:
/// one way to read a typed, stored or spoken name back, for every such choice.
public protocol NamedChoice: RawRepresentable<String>, CaseIterable {
    /// Other names for a choice, lower-cased ("feet" for imperial, an old stored name).
    static var aliases: [String: Self] { get }
}

extension NamedChoice {
    /// The value `name` stands for: a raw value or an alias, in any case and spacing.
    public init?(name: String) {
        let lowered = name.trimmingCharacters(in: .whitespaces).lowercased()
        guard let value = Self(rawValue: lowered) ?? Self.aliases[lowered] else { return nil }
        self = value
    }

    /// Alias → raw value, for the settings schema.
    public static var aliasNames: [String: String] { aliases.mapValues(\.rawValue) }
}
