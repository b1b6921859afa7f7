import ArgumentParser
import AssistCore
import Foundation
import LiveGuidance
import Media
import SessionControl
import Storage

/// The options of `assist see` that only a live input takes.
struct LiveOptions: ParsableArguments {
    @Option(help: "How to guide: continuous (new objects, objects that came closer, hazards), on-demand (only when asked: --at \"3:scan now\"), explore (a left-to-right summary on request) or navigate (obstacles in the walking corridor). Default: the stored scanning.mode setting, else continuous.")
    var mode: String?

    @Option(help: ArgumentHelp("Find mode: only this category (\"chair\", \"person\"), with direction and distance until found.", valueName: "category"))
    var find: String?

    @Option(help: ArgumentHelp("Write a timed transcript of everything said or sounded (SubRip): input time with --speak-to, session time live.", valueName: "file.srt"))
    var transcript: String?

    @Option(name: .customLong("at"), help: ArgumentHelp("Deliver a typed command at that time (input time with --speak-to, seconds since start live); repeatable. Anything the command language understands, as with assist ctl or assist console: scan now, explore, are there any obstacles, find a chair, enable scene navigation (or mode navigate), ignore people, set confidence threshold to 0.9, pause, resume, exit, … (settings changes apply from that moment and are stored).", valueName: "seconds:command"))
    var at: [String] = []

    @Option(help: ArgumentHelp("Analyse at most one frame every so many seconds (default: the stored scanning.intervalSeconds when set, else as fast as possible).", valueName: "seconds"))
    var interval: Double?

    @Flag(help: "Battery saver: half the rate and a smaller picture (also turned on by the battery.saver setting, and by itself below 15 % battery).")
    var batterySaver = false

    @Flag(help: "Analyse every frame the machine can take. By default frames are analysed when it matters: a few times a second in a still scene, every frame when something approaches, the picture changes or you ask.")
    var analyseEveryFrame = false

    @Option(help: ArgumentHelp("One detection taking longer than this stops the run with \"Detection failed.\".", valueName: "seconds"))
    var watchdog: Double = 4

    @Option(help: ArgumentHelp("On demand and in explore mode, give back camera and model after this many minutes without a request (0: never).", valueName: "minutes"))
    var afterUse: Double = 5

    @Option(help: ArgumentHelp("With --speak-to: count this many seconds of processing per analysed frame instead of the measured time, for a render that is the same on every machine.", valueName: "seconds"))
    var frameCost: Double?

    @Flag(inversion: .prefixedNo, help: "With --speak-to: decode the next frame while one is analysed, instead of after it (off by default: no gain measured on 2 cores).")
    var readAhead = SessionConfiguration.readsFrameAheadByDefault

    @Option(help: ArgumentHelp("A folder of pictures is played at this many pictures per second.", valueName: "per second"))
    var folderRate: Double = 1

    /// Checked when the live loop starts rather than in `validate()`; a bad option is bad usage,
    /// exit status 64 like ArgumentParser's own (issue 16: one status per kind of failure).
    func check() throws(CommandFailure) {
        func bad(_ sentence: String) -> CommandFailure { CommandFailure(sentence, status: .badUsage) }
        if mode != nil && find != nil { throw bad("Use either --mode or --find, not both.") }
        _ = try guidanceMode()
        // The run's numbers (interval, watchdog, after-use, frame cost): LiveGuidanceRun.checkNumbers.
        if !(folderRate >= 0.01 && folderRate <= 1000) { throw bad("--folder-rate must be from 0.01 to 1000 pictures per second, not \(numberText(folderRate)).") }
        if let find, find.trimmingCharacters(in: .whitespaces).isEmpty { throw bad("--find needs a category, for example --find chair.") }
        _ = try scheduledLines()
    }

    var analysisSchedule: AnalysisSchedule.Policy { analyseEveryFrame ? .everyFrame : .adaptive }

    /// --mode as a guidance mode; nil when not given.
    func guidanceMode() throws(CommandFailure) -> GuidanceMode? {
        guard let mode else { return nil }
        guard let known = Mode(name: mode), let starting = GuidanceMode(starting: known) else {
            let names = Mode.startable.map(\.name)
            let find = Mode(name: mode) == .find ? " (to look for something, give --find and what)" : ""
            throw CommandFailure("--mode must be \(names.dropLast().joined(separator: ", ")) or \(names.last!), not \(mode)\(find).",
                                 status: .badUsage)
        }
        return starting
    }

    /// `--at` values as typed lines on the session clock, for the command language (the same as
    /// `assist ctl` and `assist console`); whether each is understood is checked at start by `See`.
    func scheduledLines() throws(CommandFailure) -> [ScheduledLine] {
        try at.map { text throws(CommandFailure) in
            guard let line = ScheduledLine(option: text) else {
                throw CommandFailure("--at takes SECONDS:COMMAND, for example --at \"3:scan now\", not \"\(text)\".", status: .badUsage)
            }
            return line
        }
    }

    /// The live-only options given, for the error when they come with pictures.
    var optionsOnlyForLiveInput: [String] {
        [("--mode", mode != nil), ("--find", find != nil), ("--transcript", transcript != nil), ("--at", !at.isEmpty),
         ("--interval", interval != nil), ("--battery-saver", batterySaver), ("--frame-cost", frameCost != nil),
         ("--analyse-every-frame", analyseEveryFrame), ("--read-ahead", readAhead != SessionConfiguration.readsFrameAheadByDefault)].filter(\.1).map(\.0)
    }
}

extension See {
    /// The live input, when the command names one (else the inputs are pictures).
    var liveInput: VideoInput? {
        images.first.flatMap { LiveInputArgument.resolve($0, batterySaver: live.batterySaver, folderRate: live.folderRate) }
    }
}
