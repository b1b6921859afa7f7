import ArgumentParser
import AssistCore
import Benchmarks
import Foundation
import Media
import Speech

struct Say: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "say",
        abstract: "Speaks text with an offline voice (espeak-ng, or the natural voice) on the sound card, or into a WAV file.",
        discussion: """
        The speech goes to the default audio output, or the one chosen with --audio-device (see \
        `assist devices`); --speak-to renders it into a WAV file instead. --direction places the voice \
        (and --tone) to the left or right; --mono turns that off. --vibrate plays the vibration an \
        obstacle at that distance gets, on a force-feedback device (--vibration-device, or the first one \
        found); where there is none, a tone is played instead and you hear once that haptic feedback is \
        not available.

        Examples:
          assist say "Bus, 4 meters, ahead."
          assist say "Car, 3 meters, left." --tone vehicle --direction -40 --speak-to car.wav
          assist say --tone nothing-found --speak-to none.wav
          assist say --voice natural "Bus, 4 meters, ahead."
          assist say --list-voices
          assist say --benchmark
        """ + DocsPage.vision.seeAlso)

    @Argument(help: "The text to speak.")
    var text: String?

    @OptionGroup(title: "Speech") var speech: SpeechOutputOptions

    @Option(help: ArgumentHelp("Play this tone before the words (or alone).", valueName: "tone"))
    var tone: Earcon?

    @Option(help: ArgumentHelp("How serious it is, 0–1: the tone is louder the more serious.", valueName: "0-1"))
    var severity: Double = 0.5

    @Option(help: ArgumentHelp("Tones to play loud (repeatable).", valueName: "tone"))
    var loudTone: [Earcon] = []

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Where the object is, in degrees: 0 ahead, negative left, positive right (−90…90).", valueName: "degrees"))
    var direction: Double?

    @Option(help: ArgumentHelp("Vibrate as for an obstacle at this distance in meters.", valueName: "meters"))
    var vibrate: Double?

    @Option(help: ArgumentHelp("The force-feedback device to vibrate, e.g. /dev/input/event5 (default: the first one that can rumble).", valueName: "path"))
    var vibrationDevice: String?

    @Flag(help: "List the voices (the natural one, the fast one, every espeak-ng language) with their licence notes, and exit.")
    var listVoices = false

    @Flag(help: "Measure the time from queueing a sentence to its first sample reaching the output, and the voice's real-time factor (with --voice natural: sentences not said before, the same again, and hazard warnings).")
    var benchmark = false

    func validate() throws {
        if listVoices || benchmark { return }
        if let text, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw ValidationError("The text to speak is empty; give the words in quotes.")
        }
        guard text != nil || tone != nil || vibrate != nil else {
            throw ValidationError("Give the text to speak, in quotes (or a --tone to play).")
        }
        guard (0...1).contains(severity) else { throw ValidationError("--severity must be from 0 to 1, not \(severity).") }
        if let direction, !(-90...90).contains(direction) {
            throw ValidationError("--direction must be from -90 (left) to 90 (right) degrees, not \(direction).")
        }
        // `vibrate < 0` let NaN through, and NaN crashed the pattern's pulse count (issue 16).
        if let vibrate, !(vibrate >= 0 && vibrate.isFinite) {
            throw ValidationError("--vibrate takes a distance in meters, 0 or more, not \(numberText(vibrate)).")
        }
    }

    func run() async throws {
        if listVoices {
            // Each voice with its licence note: the natural voice's must be seen where it is offered.
            for voice in VoiceCatalog.listing() {
                print("\(voice.name)\t\(voice.description)\(voice.installed ? "" : " (not installed: run scripts/setup)"); licence: \(voice.licence)")
            }
            return
        }
        if benchmark {
            try SayBenchmark(voiceSettings: speech.voiceSettings).run().forEach { print($0) }
            return
        }
        let request = SayRequest(text: text, tone: tone, severity: severity, loudTones: Set(loudTone), directionDegrees: direction,
                                 vibrateMeters: vibrate, vibrationDevice: vibrationDevice)
        if try !request.say(on: speech.choice) { throw ExitCode(1) }
    }
}
