import ArgumentParser
import AssistCore
import Foundation
import Media
import Reading
import Speech

struct Read: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Reads the text in pictures aloud: pages, signs, labels, receipts.",
        discussion: """
        The text is printed and spoken in reading order: top to bottom, side-by-side columns and separate \
        signs one after the other, left to right. Before reading, a photo is turned upright (EXIF, then the \
        page orientation Tesseract detects), levelled, and small text is enlarged; several readings are made \
        and the most confident word at each place is kept. Words that are not confidently read, or do not \
        look like text, are left out: "No text found." is said rather than a guess.

        Errors for one picture are reported in one sentence on standard error and the other pictures are \
        still read; the exit status is 1 when any picture failed, 2 when the recogniser could not start.

        Examples:
          assist read letter.jpg
          assist read sign.jpg --json
          assist read ../shared/data/text/*.jpg --speak-to text.wav
        """ + DocsPage.vision.seeAlso)

    @Argument(help: ArgumentHelp("Pictures (JPEG, PNG, TIFF, WebP or anything else FFmpeg reads).", valueName: "picture"))
    var images: [String]

    @Option(help: "Tesseract language(s), e.g. eng, fra, eng+fra (each needs its tesseract-ocr-<lang> package).")
    var language: String = "eng"

    @Option(help: "How hard to look: thorough (pictures and pages) or quick (one pass, as on live frames).")
    var effort: ReadingEffort = .thorough

    @Option(help: ArgumentHelp("Words read with less confidence than this (0–100) are left out.", valueName: "percent"))
    var minimumConfidence: Float = PlausibleText.defaultMinimumConfidence

    @Flag(help: "Print blocks, lines and words with confidences (0–1) and boxes (pixels) as JSON, instead of the text.")
    var json = false

    @OptionGroup(title: "Speech") var speech: SpeechOutputOptions

    func validate() throws {
        guard !images.isEmpty else { throw ValidationError("Give at least one picture to read.") }
        guard (0...100).contains(minimumConfidence) else {
            throw ValidationError("--minimum-confidence must be from 0 to 100, not \(minimumConfidence).")
        }
    }

    func run() async throws {
        let anyFailed = try PictureReading.printReadings(
            of: images, language: language, minimumConfidence: minimumConfidence, effort: effort,
            wordsPerMinute: speech.voiceSettings.wordsPerMinute, json: json, makeSpoken: { try SpokenOutput.forDescription(speech.choice, json: json) })
        if anyFailed { throw ExitCode(1) }
    }
}

extension ReadingEffort: ExpressibleByArgument {}
