import Foundation

/// Draws the verification as an SVG: per ear, the target insertion gains for soft, medium and
/// loud input (dashed) with the measured gains (solid, dots) over log frequency, and below
/// them the audiogram (dB HL, downwards as audiologists draw it). Plain SVG text, no library.
public enum GainPlot {
    public static func svg(report: VerificationReport, prescription: Prescription) -> String {
        let width = 960.0, panelWidth = 440.0, gainHeight = 300.0, audiogramHeight = 200.0, margin = 50.0
        let frequencies = AudiometricFrequency.all
        let minLog = log2(125.0), maxLog = log2(8000.0)
        func x(_ f: Double, _ left: Double) -> Double { left + margin + (log2(f) - minLog) / (maxLog - minLog) * (panelWidth - margin - 10) }
        let allGains = report.toneGains.flatMap { [$0.targetDecibels, $0.measuredDecibels] }
        let gainTop = max(10, ((allGains.max() ?? 40) / 10).rounded(.up) * 10)
        func yGain(_ g: Double) -> Double { 40 + (gainTop - g) / gainTop * (gainHeight - 40) }
        func yHL(_ h: Double) -> Double { gainHeight + 60 + (h + 10) / 130 * (audiogramHeight - 20) }
        let colours: [Double: String] = [50: "#1b9e77", 65: "#d95f02", 80: "#7570b3"]

        var out = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(gainHeight + audiogramHeight + 90))" font-family="sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="white"/>

        """
        for (panel, ear) in Ear.allCases.enumerated() {
            let left = Double(panel) * (panelWidth + 40) + 20
            out += "<text x=\"\(left + margin)\" y=\"20\" font-size=\"15\" font-weight=\"bold\">\(ear.name.capitalized) ear: insertion gain (\(prescription.options.rule.rawValue))</text>\n"
            // Grid and axes.
            for f in frequencies {
                let xf = x(f, left)
                out += "<line x1=\"\(fmt(xf))\" y1=\"40\" x2=\"\(fmt(xf))\" y2=\"\(fmt(yHL(120)))\" stroke=\"#ddd\"/>\n"
                out += "<text x=\"\(fmt(xf))\" y=\"\(fmt(gainHeight + 15))\" text-anchor=\"middle\" font-size=\"10\">\(f >= 1000 ? "\(fmt(f / 1000))k" : "\(Int(f))")</text>\n"
            }
            for g in stride(from: 0.0, through: gainTop, by: 10) {
                out += "<line x1=\"\(fmt(left + margin))\" y1=\"\(fmt(yGain(g)))\" x2=\"\(fmt(left + panelWidth - 10))\" y2=\"\(fmt(yGain(g)))\" stroke=\"#eee\"/>\n"
                out += "<text x=\"\(fmt(left + margin - 5))\" y=\"\(fmt(yGain(g) + 4))\" text-anchor=\"end\" font-size=\"10\">\(Int(g)) dB</text>\n"
            }
            for level in ChainVerification.levelsSPL {
                let rows = report.toneGains.filter { $0.ear == ear && $0.inputSPL == level }.sorted { $0.frequencyHz < $1.frequencyHz }
                let colour = colours[level] ?? "black"
                let target = rows.map { "\(fmt(x($0.frequencyHz, left))),\(fmt(yGain($0.targetDecibels)))" }.joined(separator: " ")
                let measured = rows.map { "\(fmt(x($0.frequencyHz, left))),\(fmt(yGain($0.measuredDecibels)))" }.joined(separator: " ")
                out += "<polyline points=\"\(target)\" fill=\"none\" stroke=\"\(colour)\" stroke-dasharray=\"6 4\" stroke-width=\"1.5\"/>\n"
                out += "<polyline points=\"\(measured)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\"/>\n"
                for row in rows {
                    out += "<circle cx=\"\(fmt(x(row.frequencyHz, left)))\" cy=\"\(fmt(yGain(row.measuredDecibels)))\" r=\"3\" fill=\"\(colour)\"/>\n"
                }
                let legendY = 40 + 16 * Double(ChainVerification.levelsSPL.firstIndex(of: level)!)
                out += "<text x=\"\(fmt(left + panelWidth - 15))\" y=\"\(fmt(legendY))\" text-anchor=\"end\" fill=\"\(colour)\">\(Int(level)) dB SPL: target dashed, measured solid</text>\n"
            }
            // Audiogram.
            out += "<text x=\"\(fmt(left + margin))\" y=\"\(fmt(gainHeight + 45))\" font-weight=\"bold\">Audiogram (dB HL)</text>\n"
            for h in stride(from: 0.0, through: 120, by: 20) {
                out += "<text x=\"\(fmt(left + margin - 5))\" y=\"\(fmt(yHL(h) + 4))\" text-anchor=\"end\" font-size=\"10\">\(Int(h))</text>\n"
                out += "<line x1=\"\(fmt(left + margin))\" y1=\"\(fmt(yHL(h)))\" x2=\"\(fmt(left + panelWidth - 10))\" y2=\"\(fmt(yHL(h)))\" stroke=\"#eee\"/>\n"
            }
            let marker = ear == .left ? "blue" : "red"
            let bands = prescription[ear].bands
            let points = bands.map { "\(fmt(x($0.frequencyHz, left))),\(fmt(yHL($0.thresholdHL)))" }.joined(separator: " ")
            out += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(marker)\" stroke-width=\"1.5\"/>\n"
            for band in bands {
                let cx = x(band.frequencyHz, left), cy = yHL(band.thresholdHL)
                out += ear == .left
                    ? "<text x=\"\(fmt(cx))\" y=\"\(fmt(cy + 4))\" text-anchor=\"middle\" fill=\"blue\" font-weight=\"bold\">×</text>\n"
                    : "<circle cx=\"\(fmt(cx))\" cy=\"\(fmt(cy))\" r=\"4\" fill=\"none\" stroke=\"red\" stroke-width=\"1.5\"/>\n"
            }
        }
        out += "</svg>\n"
        return out
    }

    static func fmt(_ v: Double) -> String {
        v.rounded() == v ? String(Int(v)) : String(format: "%.1f", v)
    }
}
