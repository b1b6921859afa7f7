import ArgumentParser
import AssistCore
import ColourAndLight
import Foundation
import Media
import Speech

struct ColourCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "colour",
        abstract: "Says the colour in the centre of a picture, where a hand holds a shirt up to the camera.",
        discussion: """
        The colour is named with the basic colour terms (red, orange, yellow, green, blue, purple, pink, \
        brown, black, white, grey), with "light" or "dark" where it helps; the next main colour of the centre \
        is added when it covers a tenth of it. The light's tint and its unevenness are estimated from the \
        surroundings and taken out first. --json gives up to three main colours with their shares.

        Examples:
          assist colour shirt.jpg
          assist colour shirt.jpg --json
        """ + DocsPage.vision.seeAlso,
        aliases: ["color"])

    @Argument(help: ArgumentHelp("Pictures (JPEG, PNG, WebP or anything else FFmpeg reads).", valueName: "picture"))
    var images: [String]

    @Flag(help: "Print the centre colour, the main colours with their shares (0–1) and the light correction as JSON.")
    var json = false

    @OptionGroup(title: "Speech") var speech: SpeechOutputOptions

    func validate() throws {
        guard !images.isEmpty else { throw ValidationError("Give at least one picture.") }
    }

    func run() async throws {
        let phrases: ColourAndLightPhrases
        do { phrases = try ColourAndLightPhrases.bundled() } catch { throw CommandFailure(userMessage(for: error), status: .startupFailed) }
        let spoken = try SpokenOutput.forDescription(speech.choice, json: json)
        let results = PictureColours(phrases: phrases).describe(images, voice: spoken) { result in
            guard !json else { return }
            if let error = result.error { FileHandle.standardError.write(Data("\(error)\n".utf8)) }
            if let sentence = result.sentence { print(images.count > 1 ? "\(result.source): \(sentence)" : sentence) }
        }
        if json {
            print(try JSONReport.text(results))
        }
        try spoken?.finish()
        if results.contains(where: { $0.error != nil }) { throw ExitCode(1) }
    }
}
