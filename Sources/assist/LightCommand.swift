import ArgumentParser
import AssistCore
import ColourAndLight
import Foundation
import Media
import Speech

struct LightCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "light",
        abstract: "The light detector: says whether the room is bright, and renders a tone whose pitch follows the light of a video.",
        discussion: """
        For a picture: "The room is bright.", "The light is dim." or "It is dark.", with the brightness (0–1) \
        and the tone's pitch. For a video: the same answer for its first frame, then one line per frame \
        ("[1.20 s] brightness 0.43, 658 Hz"); --tone-to renders the continuous tone, aligned with the video, \
        into a WAV file. Live, the same tone follows the camera: assist see --mode light, or say "light detector".

        Examples:
          assist light room.jpg
          assist light corridor.mp4 --tone-to light.wav --quiet
        """ + DocsPage.vision.seeAlso)

    @Argument(help: ArgumentHelp("A picture or a video file.", valueName: "input"))
    var input: String

    @Option(help: ArgumentHelp("Render the tone that follows the light into this WAV file (mono, 22 050 Hz).", valueName: "file.wav"))
    var toneTo: String?

    @OptionGroup(title: "Speech") var speech: SpeechOutputOptions

    func run() async throws {
        let phrases: ColourAndLightPhrases
        do { phrases = try ColourAndLightPhrases.bundled() } catch { throw CommandFailure(userMessage(for: error), status: .startupFailed) }
        let reading = try LightReading(input: input)
        let answer = phrases.sentence(for: reading.firstLevel)
        print(answer)
        reading.sampleLines.forEach { print($0) }
        if let toneTo {
            let rate = 22050.0
            let writer = try AudioFileWriter(url: URL(fileURLWithPath: toneTo), sampleRate: rate, channelCount: 1)
            try writer.write(ContinuousTone.render(holding: reading.heldPitches.map { ($0.untilSeconds, $0.pitchHz) }, sampleRateHz: rate))
            try writer.finish()
        }
        if let spoken = try SpokenOutput.forDescription(speech.choice, json: false) {
            spoken.say(Utterance(answer, priority: .answer, contentKey: "light"))
            try spoken.finish()
        }
    }
}
