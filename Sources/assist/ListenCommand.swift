import ArgumentParser
import AssistCore
import Commands
import Foundation
import SessionControl
import VoiceInput

struct Listen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Listens for spoken commands, from the microphone or a recording, and prints what was understood.",
        discussion: """
        Each command heard is printed with the words recognised, the command they mean, the sentence that \
        confirms it, the recogniser's confidence and the latency (the silence the detector waits for to know \
        the command is over, plus processing). Speech that could not be made out prints "Please repeat.", or, when it \
        was less than 15 dB above the background, that it is too noisy (--json gives snr_db). A command asked about first ("Ignore chairs? Say yes or no.") is shown \
        carried out only after a yes within 10 seconds of the audio, as in a live session. Recognition runs \
        offline: a speech detector (Silero VAD) and a neural recogniser (Moonshine).

        Examples:
          assist listen --file command.wav
          assist listen --wake-phrase assistant
          assist listen --push-to-talk --json
        """ + DocsPage.commands.seeAlso)

    @Option(help: ArgumentHelp("A recording to listen to instead of the microphone (WAV, FLAC, … any rate; converted to 16 kHz mono).", valueName: "audio"))
    var file: String?

    @Option(help: "Act only on commands that start with this phrase (or follow it alone within 5 seconds), e.g. assistant.")
    var wakePhrase: String?

    @Flag(help: "Listen only while talking: press Enter to start a command and Enter again to end it.")
    var pushToTalk = false

    @Option(help: "Part of the microphone's name (see assist devices); the default microphone otherwise.")
    var microphone: String?

    @Option(help: ArgumentHelp("How speech is decoded: \(ListeningDecoding.choicesHelp) (the only choice).", valueName: "neural"))
    var decode = ListeningDecoding.standard.rawValue

    @Flag(help: "Print one JSON object per line for each event.")
    var json = false

    func validate() throws {
        guard ListeningDecoding(choice: decode) != nil else { throw ValidationError("--decode \(decode)" + ListeningDecoding.problem(withChoice: decode)) }
        if file != nil, pushToTalk { throw ValidationError("--push-to-talk needs the microphone; leave out --file.") }
        if file != nil, microphone != nil { throw ValidationError("--microphone and --file cannot be used together.") }
        if let wakePhrase, wakePhrase.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--wake-phrase needs words, such as assistant.")
        }
    }

    func run() throws {
        try CommandListening.printEvents(categories: SettingsStorageAccess.validator().knownCategories, file: file, microphone: microphone,
                                         wakePhrase: wakePhrase, pushToTalk: pushToTalk, decoding: ListeningDecoding(choice: decode) ?? .standard,
                                         json: json)
    }
}
