/// What the command language made of one utterance or typed line.
public enum Interpretation: Sendable, Equatable {
    /// A command, understood exactly or as a near miss ("scan know"): carry it out and confirm.
    case understood(Command)
    /// The command is clear but its value is not one it can take: "find a unicorn" (no such
    /// category in the model), "set confidence threshold to banana". `heard` is the value's words.
    case unknownValue(CommandIntent, slot: SlotKind, heard: String)
    /// Too far from any command to act on, close enough to offer one: "Did you mean: scan now?".
    /// `command` is set when the offered phrase is complete (its value was understood).
    case unclear(closest: String, command: Command?)
    /// Nothing like any command.
    case notUnderstood

    public var command: Command? {
        if case .understood(let command) = self { return command }
        return nil
    }
}
