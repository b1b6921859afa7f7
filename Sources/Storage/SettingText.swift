import Foundation

// JSONValue.displayText (text for people) is defined with the settings schema.

extension SettingDefinition {
    /// `value` written the way it is typed after `assist settings set`, so that `parse(text:)`
    /// reads it back unchanged: on/off, a number, a name, or a comma-separated list
    /// (hazards as category:tone:intensity). A form shows this and sends it back as typed.
    public func typedText(for value: JSONValue) -> String {
        switch (kind, value) {
        case (.onOff, .bool(let on)):
            return on ? "on" : "off"
        case (.categories, .array(let items)):
            return items.map(\.displayText).joined(separator: ", ")
        case (.hazards, .array(let items)):
            return items.map { item -> String in
                guard case .object(let fields) = item else { return item.jsonText }
                return [fields["category"], fields["tone"], fields["intensity"]].map { $0?.displayText ?? "" }.joined(separator: ":")
            }.joined(separator: ", ")
        default:
            return value.displayText
        }
    }

    /// The sentence said when a change was stored: "speech.pitch is now 60."
    public func changedSentence(in settings: Settings) -> String {
        "\(key) is now \(value(in: settings).displayText)."
    }
}
