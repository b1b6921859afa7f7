import SessionControl
import ArgumentParser
import AssistCore
import Foundation
import VoiceInput

struct Wake: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wake",
        abstract: "Listens for \"Assistive Vision\" and then starts guidance: a small always-on listener that keeps no camera open.",
        discussion: """
        Only the wake phrase is listened for, offline: a speech detector (Silero VAD) finds speech, and \
        the speech recogniser (Moonshine) listens to it for the phrase, said alone or after other words. When it is heard, \
        "Assistive Vision activated." is printed and guidance starts (by default assist see camera --listen); \
        when guidance ends, listening resumes. Only one wake listener runs per user: a second refuses to \
        start and says which process is listening. To start it with the desktop session, install \
        scripts/assist-wake.service as a systemd user service.

        Examples:
          assist wake
          assist wake --file recording.wav --print-only
        """ + DocsPage.commands.seeAlso)

    @Option(help: ArgumentHelp("Listen to this recording instead of the microphone.", valueName: "audio"))
    var file: String?

    @Option(help: "Part of the microphone's name (see assist devices).")
    var microphone: String?

    @Option(help: ArgumentHelp("What to start when woken: assist's own arguments.", valueName: "arguments"))
    var then: String = "see camera --listen"

    @Flag(help: "Only print when the phrase is heard; start nothing.")
    var printOnly = false

    func validate() throws {
        if file != nil, microphone != nil { throw ValidationError("--microphone and --file cannot be used together.") }
    }

    func run() throws {
        try WakeListening(file: file, microphone: microphone, then: then, printsOnly: printOnly).run()
    }
}
