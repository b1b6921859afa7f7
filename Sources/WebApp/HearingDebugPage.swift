import AssistCore
import Foundation
import Hearing
import LiveHearing
import Prescription

/// The Debug page: what the running chain does, band by band (input level, applied gain, and
/// the output level they give), sent about ten times a second, and reference thresholds changed
/// while it runs. Open only while the patient store holds a valid debug prescription, exactly
/// as the command line's debugging mode is unlocked (`UnlockedPatientStore.debuggingMode()`).
extension HearingPages {
    /// The band levels and gains of one moment, as the page's script reads them.
    struct DebugFrame: Codable, Equatable {
        struct EarFrame: Codable, Equatable {
            /// Smoothed band input level, dB SPL.
            var inputSPL: [Double]
            /// Insertion gain applied in the band, dB.
            var gainDecibels: [Double]
            /// Input level plus applied gain, dB SPL (before the output limiter).
            var outputSPL: [Double]
        }
        var bandsHz: [Double]
        var left: EarFrame
        var right: EarFrame

        init(monitors: HearingMonitors) {
            func ear(_ ear: Ear) -> EarFrame {
                let input = monitors.values(.inputLevelSPL, ear: ear).map { Self.rounded(Double($0)) }
                let gain = monitors.values(.appliedGainDecibels, ear: ear).map { Self.rounded(Double($0)) }
                return EarFrame(inputSPL: input, gainDecibels: gain, outputSPL: zip(input, gain).map { Self.rounded($0 + $1) })
            }
            bandsHz = HearingMonitors.bandFrequenciesHz
            left = ear(.left)
            right = ear(.right)
        }

        static func rounded(_ value: Double) -> Double { value.isFinite ? (value * 10).rounded() / 10 : 0 }

        /// One server-sent event.
        var event: String {
            let data = (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            return "data: \(data)\n\n"
        }
    }

    /// The debugging mode, or the refusal the command line gives (no valid debug prescription).
    func debugAuthorisation() -> Result<DebuggingMode, PrescriptionError>? {
        guard let store = unlocked else { return nil }
        do { return .success(try store.debuggingMode()) } catch let error as PrescriptionError {
            return .failure(error)
        } catch {
            return .failure(.fittingRejected(reason: userMessage(for: error)))
        }
    }

    func renderDebug(formToken: String, message: PageMessage? = nil) -> (page: String, refused: Bool) {
        guard let authorisation = debugAuthorisation() else {
            return (pageDocument(.debug, body: unlockSection(formToken: formToken, returnTo: .debug), message: message), false)
        }
        let mode: DebuggingMode
        switch authorisation {
        case .failure(let error):
            return (pageDocument(.debug, body: "", message: PageMessage(text: error.userMessage, isWarning: true)), true)
        case .success(let unlocked): mode = unlocked
        }
        let document = mode.authorisation.document
        var body = "<p class=\"lead\">Unlocked by the debug prescription of \(escaped(document.audiologist.name)), issued \(PrescriptionDescription.day(document.issued)). "
            + "Every threshold change is written to the audit log, as a change made on the command line is.</p>"
        body += "<section aria-labelledby=\"aid-heading\"><h2 id=\"aid-heading\">Hearing aid</h2>\(aidStateParagraph())</section>"
        if let aid = session {
            let frame = DebugFrame(monitors: aid.control.monitors)
            body += "<section aria-labelledby=\"spectra-heading\"><h2 id=\"spectra-heading\">Spectra and gains</h2>"
            body += "<p class=\"help\" id=\"spectra-help\">Updated about ten times a second. Output is the input level plus the gain applied in each band, before the output limiter.</p>"
            body += "<div id=\"spectra\" data-events=\"/hearing/debug/events\">"
            for ear in [Ear.left, .right] { body += Self.spectrumFigure(ear: ear, frame: ear == .left ? frame.left : frame.right, bands: frame.bandsHz) }
            body += Self.gainTable(frame)
            body += "</div></section>"
            let changes = aid.thresholdChanges
            body += "<section aria-labelledby=\"threshold-heading\"><h2 id=\"threshold-heading\">Change a reference threshold</h2>"
            body += changes.isEmpty ? "<p>No threshold was changed since the hearing aid started.</p>"
                : "<p>Changed so far: \(escaped(changes.map(\.description).joined(separator: "; "))).</p>"
            let ears = Ear.allCases.map { (ear: Ear) -> String in "<option value=\"\(ear.name)\">\(ear.name)</option>" }.joined(separator: "")
            let frequencies = AudiometricFrequency.all.map { (f: Double) -> String in "<option value=\"\(Int(f))\"\(f == 2000 ? " selected" : "")>\(Int(f)) Hz</option>" }.joined(separator: "")
            body += """
            <form method="post" action="/hearing/debug/threshold">
            \(formTokenField(formToken))
            <div class="field"><label for="threshold-ear">Ear</label><select id="threshold-ear" name="ear">\(ears)</select></div>
            <div class="field"><label for="threshold-frequency">Frequency</label><select id="threshold-frequency" name="frequency">\(frequencies)</select></div>
            <div class="field"><label for="threshold-level">Threshold (dB HL)</label>
            <p id="threshold-help" class="help">−10 to 120 dB HL; the running fitting follows at once.</p>
            <input id="threshold-level" name="threshold" type="text" inputmode="numeric" aria-describedby="threshold-help" required></div>
            <button type="submit">Apply threshold</button>
            </form></section>
            """
        }
        return (pageDocument(.debug, body: body, message: message), false)
    }

    /// One ear's spectrum as bars: input (white) and output (purple, hatched by its outline) per band.
    static func spectrumFigure(ear: Ear, frame: DebugFrame.EarFrame, bands: [Double]) -> String {
        let (width, height, top, bottom, left) = (640.0, 300.0, 20.0, 250.0, 60.0)
        let slot = (width - left - 10) / Double(bands.count)
        func y(_ spl: Double) -> Double { bottom - max(0, min(120, spl)) / 120 * (bottom - top) }
        var svg = "<svg class=\"spectrum\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-labelledby=\"spectrum-\(ear.name)-title\">"
        svg += "<title id=\"spectrum-\(ear.name)-title\">\(ear.name.capitalized) ear: band input and output levels, the numbers are in the table below</title>"
        svg += "<rect width=\"\(Int(width))\" height=\"\(Int(height))\" class=\"chart-back\"/>"
        for level in stride(from: 0.0, through: 120, by: 20) {
            svg += "<line x1=\"\(left)\" x2=\"\(width - 10)\" y1=\"\(y(level))\" y2=\"\(y(level))\" class=\"grid\"/>"
            svg += "<text x=\"\(left - 6)\" y=\"\(y(level) + 5)\" class=\"tick\" text-anchor=\"end\">\(Int(level))</text>"
        }
        for (band, frequency) in bands.enumerated() {
            let x = left + Double(band) * slot
            let input = frame.inputSPL[band], output = frame.outputSPL[band]
            svg += "<rect id=\"bar-\(ear.name)-input-\(band)\" class=\"bar-input\" x=\"\(AudiogramChart.format(x + slot * 0.1))\" width=\"\(AudiogramChart.format(slot * 0.38))\" y=\"\(AudiogramChart.format(y(input)))\" height=\"\(AudiogramChart.format(bottom - y(input)))\"/>"
            svg += "<rect id=\"bar-\(ear.name)-output-\(band)\" class=\"bar-output\" x=\"\(AudiogramChart.format(x + slot * 0.52))\" width=\"\(AudiogramChart.format(slot * 0.38))\" y=\"\(AudiogramChart.format(y(output)))\" height=\"\(AudiogramChart.format(bottom - y(output)))\"/>"
            let label = frequency >= 1000 ? String(format: frequency.truncatingRemainder(dividingBy: 1000) == 0 ? "%.0fk" : "%.1fk", frequency / 1000) : "\(Int(frequency))"
            svg += "<text x=\"\(AudiogramChart.format(x + slot / 2))\" y=\"\(bottom + 22)\" class=\"tick\" text-anchor=\"middle\">\(label)</text>"
        }
        svg += "<text x=\"\(left)\" y=\"\(height - 6)\" class=\"tick\">dB SPL per band (Hz); light bars input, purple bars output</text></svg>"
        return "<h3>\(ear.name.capitalized) ear</h3><figure class=\"chart\">\(svg)<figcaption>\(ear.name.capitalized) ear: light bars are the input, purple bars the output.</figcaption></figure>"
    }

    /// The same numbers as a table: per band and ear, input, gain and output.
    static func gainTable(_ frame: DebugFrame) -> String {
        var html = "<div class=\"table-scroll\" role=\"region\" aria-labelledby=\"gains-caption\" tabindex=\"0\"><table class=\"numbers\" id=\"gains-table\">"
        html += "<caption id=\"gains-caption\">Per band: input level (dB SPL), applied gain (dB), output level (dB SPL)</caption><thead><tr><th scope=\"col\">Band (Hz)</th>"
        for ear in [Ear.left, .right] {
            html += "<th scope=\"col\">\(ear.name.capitalized) input</th><th scope=\"col\">\(ear.name.capitalized) gain</th><th scope=\"col\">\(ear.name.capitalized) output</th>"
        }
        html += "</tr></thead><tbody>"
        for (band, frequency) in frame.bandsHz.enumerated() {
            html += "<tr><th scope=\"row\">\(Int(frequency))</th>"
            for (name, ear) in [("left", frame.left), ("right", frame.right)] {
                html += "<td id=\"cell-\(name)-input-\(band)\">\(String(format: "%.0f", ear.inputSPL[band]))</td>"
                    + "<td id=\"cell-\(name)-gain-\(band)\">\(String(format: "%.0f", ear.gainDecibels[band]))</td>"
                    + "<td id=\"cell-\(name)-output-\(band)\">\(String(format: "%.0f", ear.outputSPL[band]))</td>"
            }
            html += "</tr>"
        }
        return html + "</tbody></table></div>"
    }

    /// A threshold change from the form, applied to the running chain as a typed
    /// `left:2000=65` is by `assist hear --live`.
    func changeThreshold(form: FormFields) -> PageMessage {
        let ear = form["ear"] ?? "", frequency = form["frequency"] ?? "", level = (form["threshold"] ?? "").trimmingCharacters(in: .whitespaces)
        let text = "\(ear):\(frequency)=\(level)"
        return perform(.threshold(text)) { session in
            "Threshold changed: \(session.thresholdChanges.last?.description ?? text); the running fitting follows."
        }
    }
}
