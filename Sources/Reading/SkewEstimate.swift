import Foundation

/// How far the lines of a page are tilted, from the projection profile: when the picture is
/// turned so its lines are level, the count of ink pixels per row swings most between lines and
/// gaps (Postl 1986; the method Leptonica's pixFindSkew also uses).
enum SkewEstimate {
    /// Angles tried, in degrees either way. A page photographed by hand is rarely tilted more;
    /// Tesseract's own layout analysis copes with a degree or two left over.
    static let searchRangeDegrees = 10.0
    static let stepDegrees = 0.5
    /// Below this the tilt costs Tesseract nothing, and turning the picture would only blur it.
    static let smallestCorrectionDegrees = 0.75
    /// The best angle must beat level by this factor, so noise in a picture without lines turns nothing.
    static let requiredGain = 1.15

    /// The clockwise tilt of the text lines in degrees, or 0 when there is none worth correcting.
    static func clockwiseTiltDegrees(of image: GrayImage) -> Double {
        guard !image.isEmpty else { return 0 }
        let longSide = max(image.width, image.height)
        let small = longSide > 800 ? image.scaled(by: 800 / Double(longSide)) : image
        let threshold = small.otsuThreshold
        var darkCount = 0
        for p in small.pixels where p <= threshold { darkCount += 1 }
        // Ink is the smaller class: dark text on a light page, or light text on a dark sign.
        let inkIsDark = darkCount * 2 <= small.pixels.count
        var ink: [(x: Double, y: Double)] = []
        for y in 0..<small.height {
            for x in 0..<small.width {
                let p = small[x, y]
                if inkIsDark ? p <= threshold : p > threshold { ink.append((Double(x), Double(y))) }
            }
        }
        guard ink.count > 50 else { return 0 }
        let diagonal = Int((Double(small.width * small.width + small.height * small.height)).squareRoot()) + 2
        func profileScore(_ degrees: Double) -> Double {
            let radians = degrees * .pi / 180
            let c = cos(radians), s = sin(radians)
            var rows = [Double](repeating: 0, count: 2 * diagonal + 1)
            for point in ink {
                let row = Int((point.y * c - point.x * s).rounded()) + diagonal
                if row >= 0 && row < rows.count { rows[row] += 1 }
            }
            var score = 0.0
            for i in 1..<rows.count { let d = rows[i] - rows[i - 1]; score += d * d }
            return score
        }
        let level = profileScore(0)
        var best = (degrees: 0.0, score: level)
        for step in stride(from: -searchRangeDegrees, through: searchRangeDegrees, by: stepDegrees) where step != 0 {
            let score = profileScore(step)
            if score > best.score { best = (step, score) }
        }
        guard abs(best.degrees) >= smallestCorrectionDegrees, best.score >= level * requiredGain else { return 0 }
        return best.degrees
    }
}
