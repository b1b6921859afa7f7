import AssistCore
import LiveGuidance
import Prescription
import Reading
import SessionControl
import Speech

/// The one place where an error that reached `assist` becomes an exit status and the sentence
/// printed on standard error. Libraries throw their own typed errors, worded for anyone who
/// embeds them; here each kind gets the status a script can tell apart (docs/RELIABILITY.md) and,
/// where the user can fix it with an option, the sentence names that option.
enum FailureReport {
    /// The exit status of `error`'s kind; anything not listed is a failure of the work (1).
    static func status(of error: any Error) -> ExitStatus {
        switch error {
        case let failure as CommandFailure:
            return failure.status
        case let error as LiveRunError:
            switch error {
            case .noSpeech: return .audioUnavailable
            case .cannotStart, .timedCommandsUnavailable: return .startupFailed
            case .sessionNotStarted(let startup): return status(of: startup.kind)
            case .timedCommandAsks, .timedCommandRefused, .outOfRange: return .badUsage
            }
        case let error as SessionStartupError:
            return status(of: error.kind)
        case let error as PictureDescriptionError:
            switch error {
            case .modelUnavailable, .faceModelUnavailable: return .modelUnavailable
            case .cannotStart: return .startupFailed
            }
        case is ReadingError:
            return .startupFailed
        case is SettingRefused:
            return .badUsage
        case WakeListenerLock.Failure.alreadyListening:
            return .alreadyRunning
        default:
            return .failed
        }
    }

    /// The status of a live session's start-up failure, as every command uses it.
    static func status(of kind: SessionStartupError.Kind) -> ExitStatus {
        switch kind {
        case .model: return .modelUnavailable
        case .input: return .inputUnavailable
        case .audio: return .audioUnavailable
        }
    }

    /// Done for a normal end of a live session (the input ended, the user said exit), failed for a fault.
    static func status(of ending: SessionEnding) -> ExitStatus {
        ending.isFault ? .failed : .done
    }

    /// Done when every picture was described; input unavailable when none could be read (as a
    /// live input that cannot be opened); failed when some could not be described.
    static func status(of outcome: PictureDescription.Outcome) -> ExitStatus {
        switch outcome {
        case .allDescribed: return .done
        case .noneReadable: return .inputUnavailable
        case .someNotDescribed: return .failed
        }
    }

    /// The sentence printed for `error`: the library's own, with the option that fixes it named
    /// where there is one.
    static func sentence(for error: any Error) -> String {
        switch error {
        case let error as LiveRunError:
            if let problem = error.timedCommandProblem { return "--at: " + problem }
            if let problem = error.rangeProblem, case .outOfRange(let number, _) = error { return "\(option(for: number)) " + problem }
            if error == .timedCommandsUnavailable { return "--at cannot be used: the command language could not be loaded." }
            return error.userMessage
        case let error as SayError:
            switch error {
            case .cannotPlay(let reason): return "\(reason) To hear it later, render it with --speak-to FILE.wav."
            }
        case let error as PrescriptionError:
            switch error {
            case .differentPatient(let imported, let stored):
                return PrescriptionError.differentPatientSentence(imported: imported, stored: stored, confirm: "confirm with --yes")
            case .trustNotConfirmed:
                return "Confirm with --yes when not in a terminal; nothing was trusted."
            case .noPrescriptionInUse:
                return "There is no prescription to hear through: import the QR code from your audiologist with `assist rx import PICTURE` (or `--camera`), or give an audiogram file with --audiogram."
            default:
                return error.userMessage
            }
        case PassphraseSource.Failure.noneGiven(let variable):
            return "No passphrase: give --passphrase-file, set \(variable), or run in a terminal."
        default:
            return userMessage(for: error)
        }
    }

    /// The option of `assist see` that sets each number of a live run.
    static func option(for number: LiveRunError.RunNumber) -> String {
        switch number {
        case .intervalSeconds: return "--interval"
        case .watchdogSeconds: return "--watchdog"
        case .afterUseMinutes: return "--after-use"
        case .frameCostSeconds: return "--frame-cost"
        }
    }
}
