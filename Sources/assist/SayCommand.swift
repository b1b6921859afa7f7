import ArgumentParser
import AssistCore
import Foundation
import Speech

struct Say: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "say",
        abstract: "Speaks text with the offline voice (espeak-ng) into a WAV file.",
        discussion: """
        Playing through the sound card is not part of this command yet; render with --speak-to and play \
        the file. --list-voices prints the installed voices.

        Example:
          assist say "Bus, 4 meters, ahead." --speak-to bus.wav --rate 250
        """)

    @Argument(help: "The text to speak.")
    var text: String?

    @Option(help: ArgumentHelp("Render the speech into this WAV file.", valueName: "file.wav"))
    var speakTo: String?

    @Option(help: "Voice or language, e.g. en, en-us, fr-fr (see --list-voices).")
    var voice: String = "en"

    @Option(help: "Speaking rate in words per minute (80–450).")
    var rate: Int = 175

    @Option(help: "Pitch, 0–100 (50 is the voice's normal pitch).")
    var pitch: Int = 50

    @Option(help: "Volume in percent (0–100).")
    var volume: Int = 70

    @Flag(help: "List the installed voices and exit.")
    var listVoices = false

    func validate() throws {
        if listVoices { return }
        guard text != nil else { throw ValidationError("Give the text to speak, in quotes.") }
        guard speakTo != nil else { throw ValidationError("Add --speak-to FILE.wav: speech is rendered to a file for now.") }
    }

    func run() async throws {
        if listVoices {
            try SpeechSynthesizer.availableVoices().forEach { print($0) }
            return
        }
        guard let text, let speakTo else { return }
        let synthesizer = try SpeechSynthesizer(settings: SpeechVoiceSettings(
            voice: voice, wordsPerMinute: rate, pitch: pitch, volumePercent: volume))
        let audio = try synthesizer.synthesize(text)
        try SpeechFileSink(url: URL(fileURLWithPath: speakTo)).write([audio])
    }
}
