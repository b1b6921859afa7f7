import Commands
import Foundation
import SessionControl

/// How the Live page reaches the running session: one command line in, its one-sentence reply
/// out. `assist serve` sends to the session's control socket, where the session's own
/// `CommandController` handles it as it handles `assist ctl` and typed lines.
public typealias SessionCommandSender = @Sendable (String) async throws -> ControlReply

/// The Live page: buttons for the commands used most, each sending the phrase the command
/// language defines for it, and a live region with what the session said.
struct LivePage: Sendable {
    let language: CommandLanguage
    let sentences: SpokenSentences
    /// Whether a session is listening now (its socket exists).
    let sessionRunning: @Sendable () -> Bool

    /// The buttons, each an intent whose defined example phrase is sent.
    static let buttons: [(intent: CommandIntent, title: String)] = [
        (.scanNow, "Scan now"), (.stopTalking, "Stop talking"),
        (.continuousMode, "Continuous mode"), (.onDemandMode, "On-demand mode"),
        (.exploreScene, "Explore the scene"), (.navigationMode, "Navigation mode"), (.lightMode, "Light detector"), (.stopDetection, "Pause detection"), (.startDetection, "Resume detection"),
    ]

    func render(formToken: String, message: PageMessage? = nil) -> String {
        let running = sessionRunning()
        var body = running
            ? "<p class=\"lead\" id=\"session-state\">A session is running; these buttons send it commands as <code>assist ctl</code> does.</p>"
            : "<p class=\"message warning\" id=\"session-state\">No session is running, so these buttons have nothing to control: start one with <code>assist see VIDEO</code> or <code>assist console</code>, then reload this page.</p>"
        body += "<div class=\"live-layout\"><section aria-labelledby=\"commands-heading\" class=\"commands-section\"><h2 id=\"commands-heading\">Commands</h2>"
        body += "<form method=\"post\" action=\"/live/command\" class=\"commands\" data-live-command>"
        body += "<input type=\"hidden\" name=\"\(AccessGuard.formField)\" value=\"\(formToken)\">"
        for button in Self.buttons {
            body += "<button type=\"submit\" name=\"command\" value=\"\(escaped(language.example(for: button.intent)))\">\(escaped(button.title))</button>"
        }
        body += "</form>"
        body += """
        <form method="post" action="/live/command" class="row" data-live-command>
        <input type="hidden" name="\(AccessGuard.formField)" value="\(formToken)">
        <label for="find-what">Find</label>
        <input id="find-what" name="find" type="text" autocomplete="off" aria-describedby="find-help">
        <button type="submit">Find</button>
        <p id="find-help" class="help">An object to look for, such as a chair or a person.</p>
        </form></section>
        """
        // The commands come first and the growing list of sentences after them, so the buttons
        // stay where they are (at 400 % zoom too) while sentences arrive. The view comes last: beside
        // them on a wide screen, below them when zoomed, where its height moves nothing else.
        // The list is a live region by aria-live alone: role="log" would take its list semantics
        // away, leaving the sentences as items outside any list (axe-core's "listitem").
        body += """
        <section aria-labelledby="said-heading" class="said-section"><h2 id="said-heading">Said by the session</h2>
        <ol id="spoken" class="spoken" aria-live="polite" aria-relevant="additions" aria-labelledby="said-heading">
        """
        for sentence in sentences.recent { body += "<li>\(escaped(sentence.text))</li>" }
        body += "</ol></section>" + LiveViewPanel.render() + "</div>"
        return pageDocument(.live, body: body, message: message)
    }

    /// The line a submitted form stands for: a button's phrase, or "find" and the object named.
    static func line(from form: FormFields) -> String? {
        if let find = form["find"]?.trimmingCharacters(in: .whitespacesAndNewlines), !find.isEmpty {
            return "find " + find
        }
        guard let command = form["command"]?.trimmingCharacters(in: .whitespacesAndNewlines), !command.isEmpty else { return nil }
        return command
    }
}
