import ArgumentParser
import AssistCore
import Foundation
import Hearing
import LiveHearing
import Media
import SessionControl

/// `assist hear`: the hearing assistant. Processing a file (or live sound) is the default
/// subcommand; `verify` measures the fitted chain; `bench` (hidden) times it.
struct Hear: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hear",
        abstract: "Fits sound to a hearing loss: processes a file or live sound through the prescribed hearing-aid chain.",
        discussion: """
        Without --audiogram, the prescription in use is heard through: the
        one your audiologist signed and you imported with `assist rx import`
        (its passphrase is asked as for `assist rx`, or given with
        --passphrase-file). It is checked again when loaded, and only its
        programs can be chosen. An audiologist can instead give an audiogram
        JSON file with --audiogram:

          {"rule": "nal-r",
           "maximumOutputSPL": 100,
           "calibration": {"inputFullScaleSPL": 110, "outputFullScaleSPL": 110},
           "left":  {"thresholds": {"250": 20, "500": 30, "1000": 40,
                                    "2000": 55, "4000": 70, "8000": 75}},
           "right": {"thresholds": {"250": 25, "500": 35, "1000": 45,
                                    "2000": 60, "4000": 70},
                     "uncomfortable": {"1000": 100}}}

        Thresholds and uncomfortable levels: dB HL (-10 to 120) keyed by
        standard audiometric frequency (125, 250, 500, 750, 1000, 1500, 2000,
        3000, 4000, 6000, 8000 Hz); missing ones are interpolated. Both ears
        are required (copy one ear if only one was measured). Optional:
        "rule" (nal-r, nal-rp, half-gain, pogo, fig6; default fig6),
        "levelReference" ("band": targets apply to each band's own level, as
        for a pure tone, the default; "speech": to the overall level of speech
        giving that band level, ANSI S3.5 spectrum), "maximumOutputSPL" (60 to
        111 dB SPL; default 100), "calibration" (dB SPL of a full-scale sine at
        the microphone and at the headphone; default 110 and 110).

        While --live runs, type a program's name or number (shown at the
        start) and Enter to switch program (it is said in the ear); + and -
        change the volume, q quits; with a debug prescription stored,
        left:2000=65 changes a reference threshold while listening. With a
        JACK server running and no device named, --live is a JACK client of
        its own (ports assist-hear:in_1, in_2, out_1, out_2); otherwise it
        goes through PortAudio (ALSA, PipeWire). --duration stops it by
        itself; --json prints how it ran.

        A signed debug prescription in the patient store unlocks the
        debugging mode: then --debug-threshold left:2000=65 changes a
        reference threshold the fitting is computed from.

        Examples:
          assist hear talk.flac -o aided.wav --program restaurant
          assist hear --live --program 2
          assist hear talk.flac -o aided.wav --audiogram me.json --program restaurant
          assist hear verify --audiogram me.json --plot gains.svg
          assist hear --live --audiogram me.json --input-device USB --buffer-size 64
          JACK_DEFAULT_SERVER=NAME assist hear --live --duration 10 --json
        """ + DocsPage.hearing.seeAlso,
        subcommands: [HearProcess.self, HearVerify.self, HearBench.self],
        defaultSubcommand: HearProcess.self
    )
}

struct HearProcess: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "process",
        abstract: "Processes an audio file (any format libsndfile reads) into a stereo WAV, or live sound with --live.",
        discussion: DocsPage.hearing.reference
    )

    @Argument(help: "The input audio file (mono feeds both ears; stereo keeps its sides).")
    var input: String?

    @Option(name: .shortAndLong, help: "The output WAV file (stereo, 16-bit).")
    var output: String?

    @OptionGroup var fitting: FittingArguments

    @Option(help: "User volume in 2 dB steps relative to the prescription (within −12…+6 dB).")
    var volume: Int = 0

    @Option(help: "Write the monitors (band levels, gains, noise estimates per ear) every 100 ms as a JSON time series to this file.")
    var monitor: String?

    @Flag(help: "Process live sound from the microphone to the headphones (PortAudio, full duplex).")
    var live = false

    @OptionGroup var sound: LiveSoundOptions

    @Flag(help: "Live: list the audio devices and exit.")
    var listDevices = false

    @Option(help: "Live: stop by itself after this many seconds (0.1 to 86400).")
    var duration: Double?

    @Flag(help: "Live: print a JSON summary at the end (devices, rate, blocks, dropouts, peaks, latency); messages go to stderr.")
    var json = false

    func validate() throws {
        if live || listDevices {
            guard input == nil else { throw ValidationError("Give either an input file or --live, not both.") }
            if let duration, !(0.1...86_400).contains(duration) { throw ValidationError("--duration must be 0.1 to 86400 seconds.") }
        } else {
            guard input != nil else { throw ValidationError("Give an input audio file, or --live for live sound.") }
            guard duration == nil, !json else { throw ValidationError("--duration and --json go with --live.") }
            guard output != nil else { throw ValidationError("Give the output file with -o OUT.wav.") }
        }
    }

    func run() async throws {
        if listDevices { try LiveHearingAid.deviceList().forEach { print($0) }; return }
        let show = LiveHearingSummary.printer(json: json)
        let fitted = try fitting.fitted(tell: show)
        guard live else { return print(try fitted.processFile(input!, into: output!, volumeSteps: volume, monitorFile: monitor)) }
        let summary = try fitted.hearLive(volumeSteps: volume, devices: sound.devices, monitorFile: monitor, durationSeconds: duration,
                                          announcementVoice: StoredVoiceSpeech.voice(from: StoredVoiceSpeech.storedSettings()), show: show)
        try print(json ? JSONReport.text(summary) : summary.sentence)
    }
}
