import AssistCore

/// One understood command: what it asks for and the values it carries.
public struct Command: Sendable, Equatable, CustomStringConvertible {
    public var intent: CommandIntent
    /// Set for intents whose slot is `.category` or `.categories`.
    public var categories: CategorySelection?
    /// Set for `.fraction` (0…1) and `.number` slots.
    public var number: Double?
    /// Set for `.language`.
    public var language: LanguageChoice?
    /// For a question about a thing in view, the side of the view said after it ("the person on
    /// the left"); nil when none was said.
    public var side: SideOfView?

    public init(_ intent: CommandIntent, categories: CategorySelection? = nil, number: Double? = nil,
                language: LanguageChoice? = nil) {
        self.intent = intent
        self.categories = categories
        self.number = number
        self.language = language
    }

    public var description: String {
        var parts = [intent.rawValue]
        if let categories { parts.append(categories.categories.joined(separator: ",")) }
        if let number { parts.append(String(number)) }
        if let language { parts.append(language.code) }
        return parts.joined(separator: " ")
    }
}

/// Detector categories named by the user: "chairs" → [chair]; "vehicles" → [bicycle, car, …];
/// "cars and people" → [car, person]. Categories are the detector's own class names.
public struct CategorySelection: Sendable, Equatable {
    /// Detector class names, in the order named, without repeats.
    public var categories: [String]
    /// How to say what was named, for sentences: singular and plural ("chair"/"chairs",
    /// "vehicle"/"vehicles", "car and person"/"cars and people").
    public var singular: String
    public var plural: String

    public init(categories: [String], singular: String, plural: String) {
        self.categories = categories
        self.singular = singular
        self.plural = plural
    }
}

/// A language the user asked for, by its BCP 47 tag and its name in the command language.
public struct LanguageChoice: Sendable, Equatable {
    public var code: String
    public var name: String

    public init(code: String, name: String) {
        self.code = code
        self.name = name
    }
}
