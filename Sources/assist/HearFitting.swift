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

    var choice: HearingFitting {
        HearingFitting(audiogramFile: audiogram, rule: rule, program: program, debugThresholds: debugThresholds,
                       feedbackManagement: feedbackCancellation ? .all : [])
    }

    /// `tell` shows where the fitting came from (stdout, or stderr when stdout carries JSON).
    func fitted(tell: (String) -> Void = { print($0) }) throws -> HearingFitting.Fitted {
        try choice.fitted(openStore: { try store.open() }, tell: tell)
    }

    func settings() throws -> HearingAidSettings { try fitted().settings }
}

/// The sound devices of `assist hear --live` and `assist serve --hear-live`.
struct LiveSoundOptions: ParsableArguments {
    @Option(help: "Live hearing: the input device, by (part of) its name.") var inputDevice: String?
    @Option(help: "Live hearing: the output device, by (part of) its name.") var outputDevice: String?
    @Option(help: "Live hearing: sample rate, 44100 or 48000 Hz.") var sampleRate: Double = 48_000
    @Option(help: "Live hearing: frames per buffer (16, 32, 64 or a multiple of 64); smaller is lower latency.") var bufferSize: Int = 64
    func validate() throws { guard [44_100.0, 48_000].contains(sampleRate) else { throw ValidationError("Live sound runs at 44100 or 48000 Hz.") } }
    var devices: LiveSoundDevices { LiveSoundDevices(inputDevice: inputDevice, outputDevice: outputDevice, sampleRate: sampleRate, bufferSize: bufferSize) }
}
