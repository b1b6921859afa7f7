/// An error that can be told to the user in one clear sentence (printed, or spoken where the
/// user cannot see). Every module's typed errors conform, so the command layer never has to
/// know a module's cases to report them well.
public protocol UserFacingError: Error, CustomStringConvertible {
    /// One sentence, ending in a full stop, that names the thing that went wrong and, where it
    /// helps, what to do: "The file bus.jpg is not an image FFmpeg can read."
    var userMessage: String { get }
}

extension UserFacingError {
    public var description: String { userMessage }
}

/// The sentence to show for any error: a `UserFacingError`'s own, or a generic one that still
/// names the error, so nothing reaches the user as a Swift dump.
public func userMessage(for error: any Error) -> String {
    if let error = error as? any UserFacingError { return error.userMessage }
    return "Something went wrong: \(error)."
}
