/// The side of the view a question names for the thing it asks about: "how far is the person on
/// the left", "what colour is the car on my right". Read from the words by the command language,
/// answered by the picture answers.
public enum SideOfView: String, Sendable, Equatable, Codable, CaseIterable {
    case left, right
}
