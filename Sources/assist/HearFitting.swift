import ArgumentParser
import AssistCore
import Foundation
import Hearing
import LiveHearing
import Prescription

/// Options shared by the subcommands that build a fitting: an audiogram file (the audiologist's
/// way), else the prescription in use from the patient store (the patient's way).
struct FittingArguments: ParsableArguments {
    @Option(name: .shortAndLong, help: "The audiogram JSON file (format in `assist hear --help`). Without it, the prescription in use from `assist rx` is heard through.")
    var audiogram: String?

    @Option(help: "Override the audiogram file's fitting rule: nal-r, nal-rp, half-gain, pogo or fig6 (a prescription's rule is fixed).")
    var rule: String?

    @Option(help: "Listening program to start in: quiet, conversation-in-noise (or restaurant), music, outdoors, tv, or its number; only the prescription's programs (default: its first).")
    var program: String?

    @Option(name: .customLong("debug-threshold"),
            help: ArgumentHelp("Debugging mode, unlocked only by a signed debug prescription in the patient store: set a reference threshold (dB HL) the fitting is computed from; repeat for more.",
                               valueName: "ear:frequency=dB"))
    var debugThresholds: [String] = []

    @Flag(help: "Cancel acoustic feedback (open-fit earbuds, a laptop's own speaker) and lower the gain of a band that howls. Long steady tones are partly cancelled too.")
    var feedbackCancellation = false

    @OptionGroup var store: RxStoreOptions

    func validate() throws {
        if let rule {
            _ = try FittingRule(named: rule)
            if audiogram == nil { throw ValidationError("--rule changes an audiogram file's rule; a prescription's rule is fixed by your audiologist.") }
        }
        if let program, Int(program) == nil { _ = try ListeningProgram(named: program) }
        for change in debugThresholds { _ = try ReferenceThresholdChange(parsing: change) }
    }

    /// The fitting to hear through and the program to start in; the patient store it came from
    /// (nil for an audiogram file) and, where the debugging mode is on, what a live session
    /// needs to change thresholds further.
    /// `tell` shows where the fitting came from (stdout, or stderr when stdout carries JSON).
    func fitted(tell: (String) -> Void = { print($0) }) throws
        -> (settings: HearingAidSettings, hearing: PrescribedHearing, store: UnlockedPatientStore?, debugging: LiveDebugging?) {
        var calibration = LevelCalibration()
        var unlocked: UnlockedPatientStore?
        var hearing: PrescribedHearing
        if let audiogram {
            let document = try AudiogramDocument.load(from: URL(fileURLWithPath: audiogram))
            hearing = PrescribedHearing(audiogram: try document.audiogram(),
                                        options: try document.fittingOptions(ruleOverride: try rule.map { try FittingRule(named: $0) }),
                                        programs: ListeningProgram.allCases, origin: "audiogram file \(audiogram)")
            calibration = try (document.calibration ?? LevelCalibration()).validated()
        } else {
            guard PatientStore(folder: PatientStore.defaultFolder()).exists else { throw PrescriptionError.noPrescriptionInUse }
            let opened = try store.open()
            unlocked = opened
            hearing = try opened.prescribedHearing()
            tell("Hearing through \(hearing.origin).")
        }
        var debugging: LiveDebugging?
        if !debugThresholds.isEmpty {
            let changes = try debugThresholds.map { try ReferenceThresholdChange(parsing: $0) }
            // An audiogram file needs no passphrase; unlocking the debugging mode always does.
            guard PatientStore(folder: PatientStore.defaultFolder()).exists else { throw PrescriptionError.debuggingModeLocked }
            let opened = try unlocked ?? store.open()
            unlocked = opened
            let mode = try opened.debuggingMode()
            debugging = LiveDebugging(mode: mode, store: opened, signed: hearing, initialChanges: changes)
            hearing = try hearing.changingReferenceThresholds(changes, in: mode)
            try opened.recordThresholdChanges(changes, in: mode)
            tell("Debugging mode, unlocked by the debug prescription of \(mode.authorisation.document.audiologist.name): "
                  + changes.map(\.description).joined(separator: ", ") + ".")
        }
        let settings = HearingAidSettings(prescription: try hearing.fitting(), calibration: calibration,
                                          program: try hearing.program(named: program),
                                          feedbackManagement: feedbackCancellation ? .all : [])
        return (settings, hearing, unlocked, debugging)
    }

    func settings() throws -> HearingAidSettings { try fitted().settings }
}
