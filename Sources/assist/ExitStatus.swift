/// The exit status of `assist` for each kind of failure: the one definition every command and
/// the live session use, so that a script can tell a missing model from a missing camera
/// whichever command met it (docs/RELIABILITY.md lists them).
enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Done: a file or recording ended normally, or the user said "exit".
    case done = 0
    /// The work failed: an input could not be read, a file asked for was not saved, a fault
    /// ended a live run.
    case failed = 1
    /// Start-up failed for a reason other than the model, the input or audio (an option the
    /// run cannot use, the command language, a video with nothing to play).
    case startupFailed = 2
    /// The detector (or depth, or face model) is missing or damaged.
    case modelUnavailable = 3
    /// The input (camera, video, stream, folder, pictures) cannot be opened.
    case inputUnavailable = 4
    /// No voice, or no audio device to say it on.
    case audioUnavailable = 5
    /// Bad usage: an option or argument outside what it accepts (ArgumentParser's own status).
    case badUsage = 64
    /// The service is already running for this user (`assist wake`; BSD's EX_TEMPFAIL).
    case alreadyRunning = 75
}
