import Foundation
import Hearing
import Prescription

/// The audiogram drawn on the server as inline SVG (no script, nothing fetched), in the
/// clinical layout: frequency on a logarithmic axis, hearing level growing downwards, the right
/// ear as circles joined by a solid line, the left as crosses joined by a dashed line (shape and
/// line tell the ears apart without colour). The table after it carries the same numbers for a
/// screen reader and for anyone who reads numbers better than a graph.
enum AudiogramChart {
    static let width = 640.0, height = 420.0
    static let plotLeft = 70.0, plotRight = 610.0, plotTop = 40.0, plotBottom = 380.0
    static let levelRange = -10.0...120.0

    static func x(_ frequencyHz: Double) -> Double {
        let low = log2(125.0), high = log2(8000.0)
        return plotLeft + (log2(frequencyHz) - low) / (high - low) * (plotRight - plotLeft)
    }

    static func y(_ levelHL: Double) -> Double {
        plotTop + (levelHL - levelRange.lowerBound) / (levelRange.upperBound - levelRange.lowerBound) * (plotBottom - plotTop)
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }

    /// The figure: the chart, its description, and the table of thresholds, discomfort levels and targets.
    static func figure(_ audiogram: Audiogram, targets: PrescriptionDocument.EarTargets) -> String {
        """
        <figure class="chart">
        \(svg(audiogram))
        <figcaption id="audiogram-caption">Hearing thresholds in dB HL: right ear circles and a solid line, left ear crosses and a dashed line; \
        lower on the chart is a greater loss. Frequencies not measured are interpolated. The table below has the same values.</figcaption>
        </figure>
        \(table(audiogram, targets: targets))
        """
    }

    static func svg(_ audiogram: Audiogram) -> String {
        var parts: [String] = []
        parts.append("<svg class=\"audiogram\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-labelledby=\"audiogram-title\" aria-describedby=\"audiogram-caption\">")
        parts.append("<title id=\"audiogram-title\">Audiogram: \(escaped(summary(audiogram)))</title>")
        parts.append("<rect x=\"0\" y=\"0\" width=\"\(Int(width))\" height=\"\(Int(height))\" class=\"chart-back\"/>")
        for level in stride(from: levelRange.lowerBound, through: levelRange.upperBound, by: 10) {
            parts.append("<line x1=\"\(format(plotLeft))\" x2=\"\(format(plotRight))\" y1=\"\(format(y(level)))\" y2=\"\(format(y(level)))\" class=\"grid\"/>")
            parts.append("<text x=\"\(format(plotLeft - 8))\" y=\"\(format(y(level) + 5))\" class=\"tick\" text-anchor=\"end\">\(Int(level))</text>")
        }
        for frequency in AudiometricFrequency.all where [125, 250, 500, 1000, 2000, 4000, 8000].contains(frequency) {
            parts.append("<line x1=\"\(format(x(frequency)))\" x2=\"\(format(x(frequency)))\" y1=\"\(format(plotTop))\" y2=\"\(format(plotBottom))\" class=\"grid\"/>")
            let label = frequency >= 1000 ? "\(Int(frequency / 1000))k" : "\(Int(frequency))"
            parts.append("<text x=\"\(format(x(frequency)))\" y=\"\(format(plotTop - 12))\" class=\"tick\" text-anchor=\"middle\">\(label)</text>")
        }
        parts.append("<text x=\"\(format((plotLeft + plotRight) / 2))\" y=\"\(format(height - 8))\" class=\"tick\" text-anchor=\"middle\">Frequency (Hz); hearing level (dB HL) downwards</text>")
        for ear in [Ear.right, .left] {
            let points = measured(audiogram[ear])
            guard !points.isEmpty else { continue }
            let line = points.map { (point: (frequency: Double, level: Double)) -> String in "\(format(x(point.frequency))),\(format(y(point.level)))" }.joined(separator: " ")
            parts.append("<polyline points=\"\(line)\" class=\"ear-\(ear.name)\" fill=\"none\"/>")
            for point in points {
                let (px, py) = (x(point.frequency), y(point.level))
                if ear == .right {
                    parts.append("<circle cx=\"\(format(px))\" cy=\"\(format(py))\" r=\"8\" class=\"mark-right\"/>")
                } else {
                    parts.append("<path d=\"M\(format(px - 7)) \(format(py - 7))L\(format(px + 7)) \(format(py + 7))M\(format(px + 7)) \(format(py - 7))L\(format(px - 7)) \(format(py + 7))\" class=\"mark-left\"/>")
                }
            }
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }

    /// The measured thresholds of one ear, by frequency.
    static func measured(_ ear: EarAudiogram) -> [(frequency: Double, level: Double)] {
        ear.thresholdsHL.keys.sorted().map { ($0, ear.thresholdsHL[$0]!) }
    }

    /// "right ear 25 to 70 dB HL, left ear 20 to 75 dB HL".
    static func summary(_ audiogram: Audiogram) -> String {
        [Ear.right, .left].map { ear -> String in
            let levels = audiogram[ear].thresholdsHL.values
            guard let low = levels.min(), let high = levels.max() else { return "\(ear.name) ear not measured" }
            return "\(ear.name) ear \(Int(low)) to \(Int(high)) dB HL"
        }.joined(separator: ", ")
    }

    static func table(_ audiogram: Audiogram, targets: PrescriptionDocument.EarTargets) -> String {
        let frequencies = AudiometricFrequency.all
        var html = "<div class=\"table-scroll\" role=\"region\" aria-labelledby=\"audiogram-table-caption\" tabindex=\"0\"><table class=\"numbers\">"
        html += "<caption id=\"audiogram-table-caption\">Thresholds, discomfort levels (dB HL) and target gains for speech at 65 dB SPL (dB); — not measured</caption>"
        html += "<thead><tr><th scope=\"col\">Frequency (Hz)</th>" + frequencies.map { (f: Double) -> String in "<th scope=\"col\">\(Int(f))</th>" }.joined(separator: "") + "</tr></thead><tbody>"
        for ear in [Ear.right, .left] {
            let values = audiogram[ear]
            html += "<tr><th scope=\"row\">\(ear.name.capitalized) threshold</th>" + frequencies.map { (f: Double) -> String in
                "<td>\(values.thresholdsHL[f].map { String(Int($0)) } ?? "—")</td>" }.joined(separator: "") + "</tr>"
            if !values.uncomfortableLevelsHL.isEmpty {
                html += "<tr><th scope=\"row\">\(ear.name.capitalized) discomfort</th>" + frequencies.map { (f: Double) -> String in
                    "<td>\(values.uncomfortableLevelsHL[f].map { String(Int($0)) } ?? "—")</td>" }.joined(separator: "") + "</tr>"
            }
            html += "<tr><th scope=\"row\">\(ear.name.capitalized) target gain</th>" + targets[ear].map { (gain: Int) -> String in "<td>\(gain)</td>" }.joined(separator: "") + "</tr>"
        }
        return html + "</tbody></table></div>"
    }
}
