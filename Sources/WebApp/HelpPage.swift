import AssistCore
import Commands
import Foundation
import Storage

/// The Help page: what can be said in each mode and the tutorial, both from the command
/// language file (the sentences `help` and `tutorial` speak), and the phrase for every command.
struct HelpPage: Sendable {
    let language: CommandLanguage

    /// The modes `CommandLanguage.help(mode:)` knows, with their headings: the stored modes'
    /// names (one definition, `Mode`), then find.
    static let modes: [(name: String, title: String)] = (Mode.startable + [Mode.find]).map { mode in
        (mode.name, mode.name.prefix(1).uppercased() + mode.name.dropFirst() + " mode")
    }

    func render(formToken: String) -> String {
        var body = "<p class=\"lead\">Say or type these in <code>assist see</code>, send them with <code>assist ctl</code>, or use the buttons on the Live page.</p>"
        body += "<section aria-labelledby=\"tutorial-heading\"><h2 id=\"tutorial-heading\">Tutorial</h2>"
        // Played by the session itself (its voice, its queue, "stop talking" silences it); the
        // answer and what it says then show on the Live page.
        body += """
        <form method="post" action="/live/command">
        <input type="hidden" name="\(AccessGuard.formField)" value="\(formToken)">
        <button type="submit" name="command" value="\(escaped(language.example(for: .tutorial)))">Play the tutorial in the running session</button>
        </form><ol class="tutorial">
        """
        for sentence in language.tutorial { body += "<li>\(escaped(sentence))</li>" }
        body += "</ol></section>"
        body += "<section aria-labelledby=\"modes-heading\"><h2 id=\"modes-heading\">What you can say in each mode</h2>"
        for mode in Self.modes {
            body += "<h3>\(escaped(mode.title))</h3><p>\(escaped(language.help(mode: mode.name)))</p>"
        }
        body += "</section>"
        body += "<section aria-labelledby=\"commands-heading\"><h2 id=\"commands-heading\">Every command</h2>"
        body += "<table><caption>Each command with a phrase that says it</caption><thead><tr><th scope=\"col\">Command</th><th scope=\"col\">Say</th></tr></thead><tbody>"
        for intent in CommandIntent.allCases {
            body += "<tr><th scope=\"row\">\(escaped(Self.words(intent.rawValue)))</th><td>\(escaped(language.example(for: intent)))</td></tr>"
        }
        body += "</tbody></table></section>"
        return pageDocument(.help, body: body)
    }

    /// "scanNow" as "scan now": the intent's name in words.
    static func words(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase { result += " " + character.lowercased() } else { result.append(character) }
        }
        return result
    }
}
