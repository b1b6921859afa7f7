import AssistCore
import LiveGuidance

/// Why a live run (`LiveGuidanceRun`) did not start, or was refused before it did: one sentence
/// each, in the user's words. The command line decides the exit status of each kind and names
/// its own options; the web app and other embedders show the sentence.
public enum LiveRunError: UserFacingError, Equatable {
    /// No voice, or no audio device to say it on (`reason` starts with the model's own failure
    /// where that failed too).
    case noSpeech(reason: String)
    /// The settings, the sentences, the camera model or the picture answers could not be prepared.
    case cannotStart(reason: String)
    /// The session's own start-up check failed (the model, the input or the audio); already said.
    case sessionNotStarted(SessionStartupError)
    /// Commands at set moments were asked for, but the command language could not be loaded.
    case timedCommandsUnavailable
    /// A command at a set moment would only be asked about, and nobody can answer in a render.
    case timedCommandAsks(line: String, meant: String)
    /// A command at a set moment is not one assist carries out (`reason`: the command language's sentence).
    case timedCommandRefused(line: String, reason: String)
    /// A number of the run outside what it accepts.
    case outOfRange(RunNumber, value: Double)

    /// The numbers a run is given, each with its allowed range.
    public enum RunNumber: Sendable, Equatable, CaseIterable {
        case intervalSeconds, watchdogSeconds, afterUseMinutes, frameCostSeconds

        /// What the number is, as the user knows it.
        public var name: String {
            switch self {
            case .intervalSeconds: return "The time between scans"
            case .watchdogSeconds: return "The time guidance waits for a frame or an answer"
            case .afterUseMinutes: return "The time before camera and model are given back"
            case .frameCostSeconds: return "The time each frame is taken to cost"
            }
        }
    }

    public var userMessage: String {
        switch self {
        case .noSpeech(let reason), .cannotStart(let reason): return reason
        case .sessionNotStarted(let error): return error.userMessage
        case .timedCommandsUnavailable: return "Commands at set moments cannot be used: the command language could not be loaded."
        case .timedCommandAsks, .timedCommandRefused: return "The timed command " + timedCommandProblem!
        case .outOfRange(let number, _): return "\(number.name) " + rangeProblem!
        }
    }

    /// What is wrong with a timed command, after its text: `"scan now" is not a command …`.
    public var timedCommandProblem: String? {
        switch self {
        case .timedCommandAsks(let line, let meant):
            return "\"\(line)\" would only be asked about, and nobody can answer in a render; if you meant \"\(meant)\", write that."
        case .timedCommandRefused(let line, let reason):
            return "\"\(line)\" is not a command assist carries out: \(reason)"
        default:
            return nil
        }
    }

    /// What an out-of-range number must be: "must be from 0 to 60 seconds, not 90."
    public var rangeProblem: String? {
        guard case .outOfRange(let number, let value) = self else { return nil }
        let given = numberText(value)
        switch number {
        case .intervalSeconds: return "must be a number of seconds above 0 and at most 3600, not \(given)."
        case .watchdogSeconds: return "must be a number of seconds above 0 and at most 600, not \(given)."
        case .afterUseMinutes: return "must be 0 (never) or a number of minutes up to 1440, not \(given)."
        case .frameCostSeconds: return "must be from 0 to 60 seconds, not \(given)."
        }
    }
}

/// How a live run ended, for its owner to report: the session's own ending, and whether the
/// transcript asked for was saved (an output that was asked for and not saved is a failure).
public struct LiveRunResult: Sendable, Equatable {
    public let ending: SessionEnding
    public let transcriptSaved: Bool

    public init(ending: SessionEnding, transcriptSaved: Bool) {
        self.ending = ending
        self.transcriptSaved = transcriptSaved
    }
}
