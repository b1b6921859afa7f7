import AssistCore
import Foundation
import Storage

/// The History page: what was announced (time, label, direction, distance, mode), filtered by
/// label, with the count per label; read from the encrypted detection history as
/// `assist history list` reads it (expired entries purged first).
struct HistoryPage: Sendable {
    let history: DetectionHistory

    func render(label: String?) -> String {
        let all: [AnnouncedDetection]
        let unreadable: Int
        do {
            try history.purgeExpired()
            all = try history.list()
            unreadable = try history.unreadableCount()
        } catch {
            return pageDocument(.history, body: "", message: PageMessage(text: userMessage(for: error), isWarning: true))
        }
        let chosen = label.flatMap { $0.isEmpty ? nil : $0.lowercased() }
        let shown = chosen.map { name in all.filter { $0.label.lowercased() == name } } ?? all
        var counts: [String: Int] = [:]
        for detection in all { counts[detection.label, default: 0] += 1 }
        let labels = counts.keys.sorted()

        var body = "<p class=\"lead\">Everything announced in the retention period set in Settings. Images are never kept.</p>"
        if unreadable > 0 {
            body += "<p class=\"message warning\" role=\"alert\">\(unreadable == 1 ? "1 history entry cannot" : "\(unreadable) history entries cannot") be read (changed on disk) and \(unreadable == 1 ? "is" : "are") not shown.</p>"
        }
        let options = (["<option value=\"\"\(chosen == nil ? " selected" : "")>Every label</option>"] + labels.map { name -> String in
            "<option value=\"\(escaped(name))\"\(chosen == name.lowercased() ? " selected" : "")>\(escaped(name))</option>"
        }).joined(separator: "")
        body += """
        <section aria-labelledby="filter-heading"><h2 id="filter-heading">Filter</h2>
        <form method="get" action="/history" class="row">
        <label for="label-filter">Label</label>
        <select id="label-filter" name="label">\(options)</select>
        <button type="submit">Show</button>
        </form></section>
        """
        body += "<section aria-labelledby=\"counts-heading\"><h2 id=\"counts-heading\">Counts per label</h2>"
        if labels.isEmpty {
            body += "<p>Nothing has been announced yet.</p>"
        } else {
            body += "<table><caption>How often each label was announced</caption><thead><tr><th scope=\"col\">Label</th><th scope=\"col\">Count</th></tr></thead><tbody>"
            for name in labels { body += "<tr><th scope=\"row\">\(escaped(name))</th><td>\(counts[name] ?? 0)</td></tr>" }
            body += "</tbody></table>"
        }
        body += "</section>"
        let what = chosen.map { "Detections of \($0)" } ?? "Every detection"
        body += "<section aria-labelledby=\"list-heading\"><h2 id=\"list-heading\">\(escaped(what))</h2>"
        if shown.isEmpty {
            body += "<p>No detections match.</p>"
        } else {
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = .current
            body += "<table><caption>\(escaped(what)), oldest first (\(shown.count))</caption><thead><tr>"
                + ["Time", "Label", "Direction", "Distance", "Mode"].map { (name: String) -> String in "<th scope=\"col\">\(name)</th>" }.joined(separator: "")
                + "</tr></thead><tbody>"
            for detection in shown {
                let distance = detection.distanceMeters.map { String(format: "%.1f m", $0) } ?? "unknown"
                body += "<tr><td>\(escaped(formatter.string(from: detection.announcedAt)))</td><td>\(escaped(detection.label))</td>"
                    + "<td>\(escaped(detection.direction))</td><td>\(escaped(distance))</td><td>\(escaped(detection.mode))</td></tr>"
            }
            body += "</tbody></table>"
        }
        body += "</section>"
        return pageDocument(.history, body: body)
    }
}
