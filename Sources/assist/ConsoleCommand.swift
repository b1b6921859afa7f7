import ArgumentParser
import Foundation
import AssistCore
import SessionControl

/// `assist console`: the live session of `assist see`, driven by commands typed one per line.
struct ConsoleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract: "Run live guidance and take commands typed one per line (for screen-reader users at a keyboard).",
        discussion: """
        Everything `assist see` does on a live input, plus commands read from standard input: type \
        "scan now", "find a chair", "ignore chairs", "set confidence threshold to 0.5", "help", … and press \
        Enter. Each answer is printed as one plain line and spoken; announcements are printed as \
        "[12.4 s] sentence" lines as with assist see. The end of input (Ctrl-D) ends the session, like "exit".

        INPUT is a video file, a camera (camera, camera:N, /dev/videoN), a stream URL or a folder of \
        pictures; without one, the camera. Every option of assist see can follow it (assist see --help lists them).

        Examples:
          assist console
          assist console walk.mp4 --mode on-demand
          echo "scan now" | assist console walk.mp4 --quiet
        """ + DocsPage.commands.seeAlso)

    @Argument(parsing: .captureForPassthrough,
              help: ArgumentHelp("The live input (default: camera), then any option of assist see.", valueName: "input"))
    var arguments: [String] = []

    func run() async throws {
        // Everything after the input is handed to assist see, so --help must be caught here.
        if arguments.contains("--help") || arguments.contains("-h") { throw CleanExit.helpRequest(Self.self) }
        var seeArguments = arguments
        if seeArguments.first.map({ $0.hasPrefix("-") }) ?? true { seeArguments.insert("camera", at: 0) }
        let see: See
        do {
            see = try See.parse(seeArguments)
        } catch {
            throw CommandFailure(See.message(for: error), status: .startupFailed)
        }
        guard see.liveInput != nil else {
            throw CommandFailure("assist console needs a video, a camera, a stream or a folder of pictures, not \(seeArguments[0]).",
                                 status: .startupFailed)
        }
        try await SessionAdapters.$readsConsole.withValue(true) {
            try await see.run()
        }
    }
}
