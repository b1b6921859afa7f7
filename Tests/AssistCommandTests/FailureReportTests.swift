import AssistCore
import Benchmarks
import ColourAndLight
import Evaluation
import Foundation
import LiveGuidance
import Perception
import Prescription
import Reading
import SessionControl
import Speech
import Storage
import Testing
import WebApp
@testable import assist

/// Issue 36: the libraries throw their own typed errors, each one sentence that names no option;
/// only `assist` turns a kind of failure into an exit status and names the option that fixes it.
@Suite("Errors typed to the edge: each kind's exit status and sentence, decided only by assist")
struct FailureReportTests {
    static let startup = SessionStartupError("The model file /nonexistent/m.xml does not exist.", kind: .model)

    /// One error of every kind the libraries throw to `assist` since issue 36, and the status it exits with.
    static let kinds: [(error: any UserFacingError, status: Int32)] = [
        (LiveRunError.noSpeech(reason: "No audio output device was found."), 5),
        (LiveRunError.cannotStart(reason: "The camera's field of view must be from 30 to 150 degrees."), 2),
        (LiveRunError.sessionNotStarted(startup), 3),
        (LiveRunError.sessionNotStarted(SessionStartupError("The camera cannot be opened.", kind: .input)), 4),
        (LiveRunError.sessionNotStarted(SessionStartupError("No voice.", kind: .audio)), 5),
        (LiveRunError.timedCommandsUnavailable, 2),
        (LiveRunError.timedCommandAsks(line: "scan", meant: "scan now"), 64),
        (LiveRunError.timedCommandRefused(line: "fly", reason: "Flying is not a command."), 64),
        (LiveRunError.outOfRange(.intervalSeconds, value: 0), 64),
        (LiveRunError.outOfRange(.watchdogSeconds, value: 601), 64),
        (LiveRunError.outOfRange(.afterUseMinutes, value: -1), 64),
        (LiveRunError.outOfRange(.frameCostSeconds, value: 61), 64),
        (SessionStartupError("The video cannot be opened.", kind: .input), 4),
        (PictureDescriptionError.modelUnavailable(reason: "The model file /nonexistent/m.xml does not exist."), 3),
        (PictureDescriptionError.faceModelUnavailable(reason: "The face model is missing."), 3),
        (PictureDescriptionError.cannotStart(reason: "The picture answers could not be loaded."), 2),
        (ReadingError.cannotStart(reason: "Tesseract's English data is missing."), 2),
        (SettingRefused(reason: .invalidSetting(key: "speech.pitch", allowed: "0 to 100", given: "1e19")), 64),
        (WakeListenerLock.Failure.alreadyListening(owner: "42"), 75),
        (WakeListenerLock.Failure.cannotCreate(path: "/run/user/1/wake.lock"), 1),
        (WakeListenerLock.Failure.cannotListen(reason: "The speech models are not installed."), 1),
        (SayError.cannotPlay(reason: "No audio output device was found."), 1),
        (LightReadingError.noFrames(video: "dark.mp4"), 1),
        (EvaluationError.noDepthFrames, 1),
        (EvaluationError.nothingEvaluated(folder: "/data/set"), 1),
        (BenchmarkInputError.unreadable(path: "non-commands.txt"), 1),
        (PrescriptionError.differentPatient(imported: "Hans", stored: "Margarethe"), 1),
        (PrescriptionError.trustNotConfirmed, 1),
        (PrescriptionError.trustDeclined, 1),
        (PrescriptionError.importDeclined(imported: "Hans", stored: "Margarethe"), 1),
        (PrescriptionError.noPrescriptionInUse, 1),
        (PrescriptionError.notAThreshold("forty"), 1),
        (PassphraseSource.Failure.noneGiven(variable: "ASSIST_RX_PASSPHRASE"), 1),
        (HistoryTimeError(bound: .since, text: "yesterday"), 64),
        (HistoryRangeError(), 64),
        (UsageDay.Unknown(text: "someday"), 64),
        (WebAppError.portInUse(port: 8080), 1),
        (WebAppError.invalidPort(70000), 64),
        (CameraSettingsError.intrinsicsNotFourNumbers, 64),
        (VoiceBenchmarkPlan.Problem.snr, 64),
        (DescriptionChoice.Problem.minimumConfidence(1.5), 64),
        (DescriptionChoice.Problem.maximumObjects(0), 64),
        (DetectorError.cannotResize(model: "yolo11n", size: "320×480", reason: "its files could not be read again"), 1),
    ]

    @Test("no library error's sentence names a command-line option")
    func librarySentencesNameNoOption() {
        for (error, _) in Self.kinds {
            #expect(error.userMessage.range(of: #"(^|[\s(`"“])--[a-z]"#, options: .regularExpression) == nil, "\(error.userMessage)")
            #expect(error.userMessage.hasSuffix(".") || error.userMessage.hasSuffix(".)"), "\(error.userMessage)")
        }
    }

    @Test("assist maps each kind of failure to its exit status, as before the errors moved")
    func statusOfEachKind() {
        for (error, status) in Self.kinds {
            #expect(FailureReport.status(of: error).rawValue == status, "\(type(of: error)): \(error.userMessage)")
        }
        #expect(FailureReport.status(of: CommandFailure("--mode must be …", status: .badUsage)) == .badUsage)
        // Anything assist does not know is a failure of the work.
        #expect(FailureReport.status(of: CocoaError(.fileNoSuchFile)) == .failed)
        #expect(Set(ExitStatus.allCases.map(\.rawValue)).count == ExitStatus.allCases.count)
    }

    @Test("a live session's end and a description of pictures map to done, input unavailable or failed")
    func statusOfOutcomes() {
        #expect(FailureReport.status(of: SessionEnding.inputEnded) == .done)
        #expect(FailureReport.status(of: SessionEnding.userQuit) == .done)
        #expect(FailureReport.status(of: SessionEnding.detectionFailed) == .failed)
        #expect(FailureReport.status(of: SessionEnding.streamStopped(reason: "The stream stopped.")) == .failed)
        #expect(FailureReport.status(of: SessionEnding.unreadableInput) == .failed)
        #expect(FailureReport.status(of: PictureDescription.Outcome.allDescribed) == .done)
        #expect(FailureReport.status(of: PictureDescription.Outcome.noneReadable) == .inputUnavailable)
        #expect(FailureReport.status(of: PictureDescription.Outcome.someNotDescribed) == .failed)
    }

    @Test("where an option fixes it, assist's sentence names the option; otherwise it is the library's own")
    func sentencesNameTheOption() {
        #expect(FailureReport.sentence(for: LiveRunError.outOfRange(.intervalSeconds, value: 0))
                == "--interval must be a number of seconds above 0 and at most 3600, not 0.")
        #expect(FailureReport.sentence(for: LiveRunError.outOfRange(.watchdogSeconds, value: 601))
                == "--watchdog must be a number of seconds above 0 and at most 600, not 601.")
        #expect(FailureReport.sentence(for: LiveRunError.outOfRange(.afterUseMinutes, value: 2000))
                == "--after-use must be 0 (never) or a number of minutes up to 1440, not 2000.")
        #expect(FailureReport.sentence(for: LiveRunError.outOfRange(.frameCostSeconds, value: 61))
                == "--frame-cost must be from 0 to 60 seconds, not 61.")
        #expect(LiveRunError.outOfRange(.frameCostSeconds, value: 61).userMessage
                == "The time each frame is taken to cost must be from 0 to 60 seconds, not 61.")
        #expect(FailureReport.sentence(for: LiveRunError.timedCommandRefused(line: "fly", reason: "Flying is not a command."))
                == "--at: \"fly\" is not a command assist carries out: Flying is not a command.")
        #expect(FailureReport.sentence(for: LiveRunError.timedCommandsUnavailable)
                == "--at cannot be used: the command language could not be loaded.")
        #expect(FailureReport.sentence(for: SayError.cannotPlay(reason: "No audio output device was found."))
                == "No audio output device was found. To hear it later, render it with --speak-to FILE.wav.")
        #expect(FailureReport.sentence(for: PrescriptionError.trustNotConfirmed)
                == "Confirm with --yes when not in a terminal; nothing was trusted.")
        #expect(FailureReport.sentence(for: PrescriptionError.differentPatient(imported: "Hans", stored: "Margarethe"))
                == "This prescription is for Hans, but this hearing aid's prescriptions are for Margarethe; nothing was imported (confirm with --yes to import it anyway).")
        #expect(FailureReport.sentence(for: PassphraseSource.Failure.noneGiven(variable: "ASSIST_RX_PASSPHRASE"))
                == "No passphrase: give --passphrase-file, set ASSIST_RX_PASSPHRASE, or run in a terminal.")
        #expect(FailureReport.sentence(for: HistoryTimeError(bound: .before, text: "-2h"))
                == "--before must be a duration such as 30m, 2h or 1d, or an ISO 8601 date such as 2026-11-22; \"-2h\" is neither.")
        #expect(FailureReport.sentence(for: WebAppError.portInUse(port: 8080))
                == "Port 8080 on 127.0.0.1 is already in use; choose another with --port, or --port 0 for a free one.")
        #expect(FailureReport.sentence(for: CameraSettingsError.intrinsicsNotFourNumbers)
                == "--intrinsics takes four numbers in pixels: fx,fy,cx,cy (for example 525,525,319.5,239.5).")
        #expect(FailureReport.sentence(for: VoiceBenchmarkPlan.Problem.rates)
                == "--rates must be comma-separated numbers between 0.3 and 3, such as 0.8,1.0,1.25.")
        #expect(FailureReport.sentence(for: VoiceBenchmarkPlan.Problem.endSilence)
                == "--neural-end-silence must be 1 to 62 windows (32 ms to 2 s).")
        #expect(VoiceBenchmarkPlan.neuralProblem(certainWords: 1.2, aheadAfterWindows: nil, endSilenceWindows: nil) == .certainWords)
        #expect(VoiceBenchmarkPlan.neuralProblem(certainWords: 0.8, aheadAfterWindows: 5, endSilenceWindows: nil) == .aheadAfter)
        #expect(VoiceBenchmarkPlan.neuralProblem(certainWords: nil, aheadAfterWindows: 2, endSilenceWindows: 0) == .endSilence)
        #expect(VoiceBenchmarkPlan.neuralProblem(certainWords: 0, aheadAfterWindows: 4, endSilenceWindows: 62) == nil)
        // assist bench wake's rules, in the library beside its run.
        func wake(_ voices: [String] = ["festival"], sentences: Int? = nil, snr: Double = 10, skips: (Bool, Bool) = (false, false)) -> String? {
            WakeBenchmarkRun.problem(voiceNames: voices, sentenceLimit: sentences, sentenceSNRDecibels: snr,
                                     skipsRenderings: skips.0, skipsSpeech: skips.1).map { FailureReport.sentence(for: $0) }
        }
        #expect(FailureReport.status(of: WakeBenchmarkRun.Problem.snr) == .badUsage)
        #expect(wake() == nil)
        #expect(wake(["festival", "piper-fast"], sentences: 1, snr: -19, skips: (true, false)) == nil)
        #expect(wake(["festival", "robot"])?.hasPrefix("--voices must be") == true)
        #expect(wake([])?.hasPrefix("--voices must be") == true)
        #expect(wake(sentences: 0) == "--sentences must be at least 1.")
        #expect(wake(snr: 80) == "--snr must be between -20 and 80 dB.")
        #expect(wake(snr: .nan) == "--snr must be between -20 and 80 dB.")
        #expect(wake(skips: (true, true)) == "--wake-list and --speech-list cannot both be none.")
        for problem in VoiceBenchmarkPlan.Problem.allCases {
            #expect(FailureReport.sentence(for: problem).hasPrefix("--"))
        }
        #expect(FailureReport.sentence(for: DescriptionChoice.Problem.minimumConfidence(1.5)) == "--confidence must be a number from 0.05 to 0.95, not 1.5.")
        #expect(FailureReport.sentence(for: DescriptionChoice.Problem.iouThreshold(0)) == "--iou must be a number from 0.1 to 0.9, not 0.")
        #expect(FailureReport.sentence(for: HistoryRangeError()) == "--since must be earlier than --until.")
        #expect(FailureReport.sentence(for: UsageDay.Unknown(text: "someday"))
                == "--day must be today, yesterday or a date such as 2026-11-22; \"someday\" is none of these.")
        #expect(FailureReport.sentence(for: PictureDescriptionError.faceModelUnavailable(reason: "The face model is missing."))
                == "Faces cannot be found. The face model is missing.")
    }
}
