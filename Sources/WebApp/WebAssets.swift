import Foundation

/// The style sheet and script, served from the module's own resources: nothing comes from
/// outside this computer, so the pages work offline and reveal nothing to another server.
enum WebAssets {
    struct Asset: Sendable {
        var text: String
        var contentType: String
    }

    static let names: [String: String] = [
        "app.css": "text/css; charset=utf-8",
        "page.js": "text/javascript; charset=utf-8",
        "hearing-debug.js": "text/javascript; charset=utf-8",
        "live-view.js": "text/javascript; charset=utf-8",
    ]

    static func asset(named name: String) -> Asset? {
        guard let contentType = names[name],
              let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Assets"),
              let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        return Asset(text: text, contentType: contentType)
    }
}
