import AssistCore
import Foundation
import Hearing
import Prescription

/// Which fitting to hear through: an audiogram file (the audiologist's way), else the
/// prescription in use from the patient store (the patient's way), with the debugging mode's
/// threshold changes where a signed debug prescription unlocks them.
public struct HearingFitting: Sendable {
    public var audiogramFile: String?
    /// Overrides an audiogram file's fitting rule (a prescription's rule is fixed).
    public var rule: String?
    /// The program to start in, by name or number (default: the prescription's first).
    public var program: String?
    /// Reference threshold changes written as `left:2000=65`.
    public var debugThresholds: [String]
    /// Feedback cancellation and howl suppression (off unless asked: long steady tones are partly
    /// cancelled too).
    public var feedbackManagement: FeedbackManagement

    public init(audiogramFile: String? = nil, rule: String? = nil, program: String? = nil, debugThresholds: [String] = [],
                feedbackManagement: FeedbackManagement = []) {
        self.audiogramFile = audiogramFile
        self.rule = rule
        self.program = program
        self.debugThresholds = debugThresholds
        self.feedbackManagement = feedbackManagement
    }

    /// The fitting to hear through and the program to start in; the patient store it came from
    /// (nil for an audiogram file) and, where the debugging mode is on, what a live session
    /// needs to change thresholds further.
    public struct Fitted: Sendable {
        public let settings: HearingAidSettings
        public let hearing: PrescribedHearing
        public let store: UnlockedPatientStore?
        public let debugging: LiveDebugging?
    }

    /// `openStore` unlocks the patient store (asking for its passphrase); `tell` shows where the
    /// fitting came from.
    public func fitted(openStore: () throws -> UnlockedPatientStore, tell: (String) -> Void) throws -> Fitted {
        var calibration = LevelCalibration()
        var unlocked: UnlockedPatientStore?
        var hearing: PrescribedHearing
        if let audiogramFile {
            let document = try AudiogramDocument.load(from: URL(fileURLWithPath: audiogramFile))
            hearing = PrescribedHearing(audiogram: try document.audiogram(),
                                        options: try document.fittingOptions(ruleOverride: try rule.map { try FittingRule(named: $0) }),
                                        programs: ListeningProgram.allCases, origin: "audiogram file \(audiogramFile)")
            calibration = try (document.calibration ?? LevelCalibration()).validated()
        } else {
            guard PatientStore(folder: PatientStore.defaultFolder()).exists else { throw PrescriptionError.noPrescriptionInUse }
            let opened = try openStore()
            unlocked = opened
            hearing = try opened.prescribedHearing()
            tell("Hearing through \(hearing.origin).")
        }
        var debugging: LiveDebugging?
        if !debugThresholds.isEmpty {
            let changes = try debugThresholds.map { try ReferenceThresholdChange(parsing: $0) }
            // An audiogram file needs no passphrase; unlocking the debugging mode always does.
            guard PatientStore(folder: PatientStore.defaultFolder()).exists else { throw PrescriptionError.debuggingModeLocked }
            let opened = try unlocked ?? openStore()
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
                                          feedbackManagement: feedbackManagement)
        return Fitted(settings: settings, hearing: hearing, store: unlocked, debugging: debugging)
    }
}

extension HearingFitting {
    /// The prescription in use from an already unlocked patient store (the web app unlocks it
    /// with the passphrase typed on its page), starting in `program` (default: its first).
    public static func fitted(store: UnlockedPatientStore, program: String? = nil) throws -> Fitted {
        let hearing = try store.prescribedHearing()
        let settings = HearingAidSettings(prescription: try hearing.fitting(), program: try hearing.program(named: program))
        return Fitted(settings: settings, hearing: hearing, store: store, debugging: nil)
    }
}

extension HearingFitting.Fitted {
    /// The settings a live start hears through, at the user's volume: the gentle ramp-in is for
    /// the first start after a new prescription only (which fitting last started is kept sealed
    /// in the patient store); an audiogram file (no store) always ramps in.
    public func liveSettings(volumeSteps: Int) -> HearingAidSettings {
        var live = settings
        live.volumeSteps = volumeSteps
        live.startupRampSeconds = store?.startupRampSeconds(for: live.prescription) ?? 2
        return live
    }

    /// Thresholds can be changed while listening only where the store holds a valid debug
    /// prescription (checked at the first change), or where `--debug-threshold` unlocked it.
    public var liveDebugging: LiveDebugging? {
        debugging ?? store.map { LiveDebugging(mode: nil, store: $0, signed: hearing, initialChanges: []) }
    }
}
