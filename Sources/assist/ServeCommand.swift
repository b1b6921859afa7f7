import ArgumentParser
import AssistCore
import Commands
import Foundation
import Media
import SessionControl
import Storage
import WebApp

/// `assist serve`: the local web app (Live, History, Settings, Help) for low-vision users and
/// screen readers, on this computer only.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the accessible web app (live commands, history, settings, help, hearing) on 127.0.0.1 only.",
        discussion: """
        Prints the address to open, with a random access token that changes every run; without it \
        every page is refused. Settings changed there are the ones assist settings show reports, and the \
        Live page sends commands to the running assist see or assist console session, as assist ctl does. \
        With --input, a session is started on that input as assist see would, and what it says appears \
        on the Live page as it is said. Nothing outside this computer can connect, and the pages load \
        nothing from elsewhere.

        Examples:
          assist serve
          assist serve --port 0
          assist serve --input camera
        """ + DocsPage.webApp.seeAlso)

    @Option(help: ArgumentHelp("The port on 127.0.0.1 (0 picks a free one).", valueName: "port"))
    var port = WebApp.defaultPort

    @Option(help: ArgumentHelp("Close a connection on which no request arrives for this many seconds (default \(WebApp.defaultIdleTimeoutSeconds)); a browser reconnects at once.", valueName: "seconds"))
    var idleTimeout = WebApp.defaultIdleTimeoutSeconds

    @Option(help: ArgumentHelp("Also start a live session on this input, as assist see INPUT: a video, camera, camera:N, /dev/videoN, a stream or a folder of pictures.", valueName: "input"))
    var input: String?

    @Option(help: ArgumentHelp("With --input: as assist see --watchdog, one detection taking longer than this ends the session with \"Detection failed.\" (default 4).", valueName: "seconds"))
    var watchdog: Double?

    @Option(help: ArgumentHelp("Run the hearing aid on this sound file (looping; for a computer without a sound card) once the Hearing page is opened with the passphrase.", valueName: "file"))
    var hearInput: String?

    @Flag(help: "Run the live hearing aid on the sound devices (as assist hear --live: JACK when a server runs) once the Hearing page is opened; its pages control it.")
    var hearLive = false

    @OptionGroup var sound: LiveSoundOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError(FailureReport.sentence(for: WebAppError.invalidPort(port))) }
        guard (1...3600).contains(idleTimeout) else { throw ValidationError("--idle-timeout must be from 1 to 3600 seconds, not \(idleTimeout).") }
        guard hearInput == nil || !hearLive else { throw ValidationError("Give either --hear-input or --hear-live, not both.") }
    }

    func run() async throws {
        let database = try SettingsStorageAccess.open()
        let validator = SettingsStorageAccess.validator()
        let store = SettingsStore(database: database, validator: validator)
        let stored = (try? store.current().speech.language) ?? Storage.Settings.defaults.speech.language
        let (language, note) = try SettingsStorageAccess.commandLanguage(stored: stored, categories: validator.knownCategories)
        if let note { UserData.warn(note) }
        let control = ControlClient()
        let view = LiveViewClient()
        let app = WebApp(store: store, history: DetectionHistory(database: database), language: language,
                         sessionRunning: { FileManager.default.fileExists(atPath: control.socketPath) },
                         sendToSession: { line in try await control.sendAway(line) },
                         viewOfSession: { try await view.latestAway() },
                         hearing: HearingPages(soundFile: hearInput, live: hearLive ? sound.devices : nil))
        if let watchdog { try LiveGuidanceRun.checkWatchdog(watchdog) }
        // The session runs in this process, as `assist see INPUT` would run it.
        let session = try input.map { input in
            var run = LiveGuidanceRun(input: try VideoInput(argument: input))
            if let watchdog { run.watchdogSeconds = watchdog }
            return LiveSession(run, sentences: app.sentences, warn: { UserData.warn($0) })
        }
        // A port in use or refused fails with status 1, its sentence naming --port (`FailureReport`).
        try await app.run(port: port, idleTimeoutSeconds: idleTimeout, beside: session.map { [$0] } ?? []) { [token = app.access.accessToken] boundPort in
            // Written at once (not buffered): a script waits for this line to learn the port.
            FileHandle.standardOutput.write(Data("assist serve: open http://127.0.0.1:\(boundPort)/?token=\(token) in a browser on this computer; Ctrl-C stops it.\n".utf8))
        }
    }
}
