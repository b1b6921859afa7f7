import AssistCore
import Commands
import Foundation
import SessionControl
import LiveGuidance
import Storage

/// Typed and programmatic control of one live session: the control socket (`assist ctl`) and,
/// under `assist console`, commands read line by line from standard input. Started by the live
/// `assist see` once its session exists, stopped when the session ends.
final class LiveControl: Sendable {
    /// Set by `assist console` around the live run: read commands from standard input too.
    @TaskLocal static var readsConsole = false

    let controller: CommandController?
    private let server: ControlServer?

    private init(controller: CommandController?, server: ControlServer?) {
        self.controller = controller
        self.server = server
    }

    /// Never fails the session: without a command language or a socket the session still guides,
    /// and standard error says once what is missing.
    static func start(session: SessionControls, classNames: [String], userData: UserData?,
                      voice: VoiceOptions? = nil, json: Bool = false,
                      settingsChanged: (@Sendable (Settings) -> Void)? = nil) -> LiveControl {
        let storedLanguage = userData?.currentSettings()?.speech.language ?? "en"
        let language: CommandLanguage
        do {
            language = try (try? CommandLanguage(language: storedLanguage, categories: classNames))
                ?? CommandLanguage(language: "en", categories: classNames)
        } catch {
            UserData.warn("Commands are unavailable: \(userMessage(for: error))")
            return LiveControl(controller: nil, server: nil)
        }
        let storage = userData.map {
            CommandController.UserStorage(settings: $0.settings, history: $0.history, usage: $0.usage)
        }
        let controller = CommandController(language: language, session: session, storage: storage,
                                           settingsChanged: settingsChanged)
        var server: ControlServer?
        do {
            server = try ControlServer(path: ControlSocketLocation.socket().path) { controller.handleReportingOutcome($0) }
        } catch {
            UserData.warn("assist ctl cannot reach this session: \(userMessage(for: error))")
        }
        if readsConsole { ConsoleReader.start(controller: controller, session: session, printsReplies: json) }
        if let voice { VoiceControl.start(voice, controller: controller, session: session) }
        return LiveControl(controller: controller, server: server)
    }

    func stop() {
        server?.stop()
    }
}
