import AssistCore
import Benchmarks
import LiveGuidance
import Perception
import Prescription
import Reading
import SessionControl
import Speech
import Storage
import WebApp

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
        // Values given on the command line that are not allowed (the commands check them in
        // `validate()`, which exits 64 as well).
        case is SettingRefused, is HistoryTimeError, is HistoryRangeError, is UsageDay.Unknown, is VoiceBenchmarkPlan.Problem, is WakeBenchmarkRun.Problem,
             is DescriptionChoice.Problem,
             CameraSettingsError.intrinsicsNotFourNumbers, WebAppError.invalidPort:
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
        case let error as HistoryTimeError:
            return "\(option(for: error.bound)) " + error.requirement
        case WebAppError.portInUse(let port):
            return "Port \(port) on 127.0.0.1 is already in use; choose another with --port, or --port 0 for a free one."
        case WebAppError.invalidPort(let port):
            return "--port must be from 0 (a free port) to 65535, not \(port)."
        case CameraSettingsError.intrinsicsNotFourNumbers:
            return "--intrinsics takes four numbers in pixels: fx,fy,cx,cy (for example 525,525,319.5,239.5)."
        case DetectorError.cannotResize(let model, let size, let reason):
            return "The model \(model) cannot run at the input size \(size): \(reason); use --input-shape square."
        case let problem as DescriptionChoice.Problem:
            return "\(option(for: problem)) " + problem.requirement
        case let problem as VoiceBenchmarkPlan.Problem:
            return "\(option(for: problem)) " + problem.requirement
        case let problem as WakeBenchmarkRun.Problem:
            return "\(option(for: problem)) " + problem.requirement
        case is HistoryRangeError:
            return "--since must be earlier than --until."
        case let error as UsageDay.Unknown:
            return "--day " + error.requirement
        default:
            return userMessage(for: error)
        }
    }

    /// The option of `assist see` that gives each value of a description.
    static func option(for problem: DescriptionChoice.Problem) -> String {
        switch problem {
        case .minimumConfidence: return "--confidence"
        case .iouThreshold: return "--iou"
        case .maximumObjects: return "--max-objects"
        }
    }

    /// The option of `assist bench voice` that gives each part of its plan.
    static func option(for problem: VoiceBenchmarkPlan.Problem) -> String {
        switch problem {
        case .conditions: return "--conditions"
        case .snr: return "--snr"
        case .voices: return "--voices"
        case .decode: return "--decode"
        case .rates: return "--rates"
        case .certainWords: return "--neural-certain-words"
        case .aheadAfter: return "--neural-ahead-after"
        case .endSilence: return "--neural-end-silence"
        }
    }

    /// The option of `assist bench wake` that gives each part of its run.
    static func option(for problem: WakeBenchmarkRun.Problem) -> String {
        switch problem {
        case .voices: return "--voices"
        case .sentences: return "--sentences"
        case .snr: return "--snr"
        case .nothingToRun: return "--wake-list and --speech-list"
        }
    }

    /// The option of `assist history` that gives each bound of a period.
    static func option(for bound: HistoryTime.Bound) -> String {
        switch bound {
        case .since: return "--since"
        case .until: return "--until"
        case .before: return "--before"
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
