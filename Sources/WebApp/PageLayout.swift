import Foundation

/// Text made safe to put in HTML, in an element or a quoted attribute.
func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.count)
    for character in text {
        switch character {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&#39;"
        default: result.append(character)
        }
    }
    return result
}

/// The pages of the web app, in the order of the navigation.
enum WebPage: String, CaseIterable, Sendable {
    case live, history, settings, help
    // The hearing assistant's pages (HearingPages).
    case hearing, prescriptions, debug, audiologist

    var path: String {
        switch self {
        case .prescriptions, .debug, .audiologist: return "/hearing/" + rawValue
        default: return "/" + rawValue
        }
    }
    var title: String {
        switch self {
        case .live: return "Live"
        case .history: return "History"
        case .settings: return "Settings"
        case .help: return "Help"
        case .hearing: return "Hearing"
        case .prescriptions: return "Prescriptions"
        case .debug: return "Hearing debug"
        case .audiologist: return "Audiologist"
        }
    }

    /// The navigation shows one assistant's pages and a link to the other's: all eight would
    /// fill the first screen at 400 % zoom.
    var assistantPages: [WebPage] {
        [.hearing, .prescriptions, .debug, .audiologist].contains(self) ? [.hearing, .prescriptions, .debug, .audiologist] : [.live, .history, .settings, .help]
    }
    var otherAssistant: (page: WebPage, name: String) {
        assistantPages.contains(.live) ? (.hearing, "Hearing assistant") : (.live, "Vision assistant")
    }
    var navigationTitle: String { self == .debug ? "Debug" : title }
}

/// A message shown at the top of a page after an action: a confirmation or a refusal.
struct PageMessage: Sendable, Equatable {
    var text: String
    var isWarning: Bool
    /// The field a refusal is about, linked from the message so the user goes straight to it.
    var fieldID: String? = nil
    var fieldName: String? = nil
}

/// Every page's frame: skip link, banner with the navigation, one main region, the message after
/// an action. The message is a live region (alert for a refusal, status for a confirmation) and
/// page.js moves focus to it, so a screen reader says the outcome of the form just sent.
func pageDocument(_ page: WebPage, body: String, message: PageMessage? = nil) -> String {
    // Closures that build HTML name their String type: GRDB's SQL (visible through Storage) is
    // also built by interpolation and has its own joined(), and once the navigation came out as
    // a dump of SQL elements.
    let navigation = page.assistantPages.map { item -> String in
        let current = item == page ? " aria-current=\"page\"" : ""
        return "<li><a href=\"\(item.path)\"\(current)>\(item.navigationTitle)</a></li>"
    }.joined(separator: "") + "<li><a href=\"\(page.otherAssistant.page.path)\">\(page.otherAssistant.name)</a></li>"
    let messageHTML = message.map { message -> String in
        let role = message.isWarning ? "alert" : "status"
        let kind = message.isWarning ? "warning" : "confirmation"
        let link = message.fieldID.map { id in
            "<p class=\"field-link\"><a href=\"#\(id)\">Go to \(escaped(message.fieldName ?? "the field")) to correct it</a></p>"
        } ?? ""
        return "<p id=\"message\" class=\"message \(kind)\" role=\"\(role)\" tabindex=\"-1\">\(escaped(message.text))</p>" + link
    } ?? ""
    return """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>\(page.title) – AssistiveKit</title>
    <link rel="stylesheet" href="/assets/app.css">
    <script src="/assets/page.js" defer></script>
    \(page == .debug ? "<script src=\"/assets/hearing-debug.js\" defer></script>" : "")
    </head>
    <body>
    <a class="skip" href="#main">Skip to the main content</a>
    <header>
    <p class="product">AssistiveKit</p>
    <nav aria-label="Pages"><ul>\(navigation)</ul></nav>
    </header>
    <main id="main" tabindex="-1">
    <h1>\(page.title)</h1>
    \(messageHTML)
    \(body)
    </main>
    </body>
    </html>
    """
}
