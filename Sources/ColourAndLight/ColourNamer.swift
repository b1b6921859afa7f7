import AssistCore
import Foundation

/// The eleven basic colour terms of English (Berlin & Kay 1969).
public enum BasicColour: String, Sendable, CaseIterable, Codable {
    case red, orange, yellow, green, blue, purple, pink, brown, black, white, grey
}

/// A colour as said: a basic term, "light" or "dark" where it helps.
public struct NamedColour: Sendable, Hashable, Codable {
    public enum Shade: String, Sendable, Hashable, Codable { case light, dark }
    public var colour: BasicColour
    public var shade: Shade?

    public init(_ colour: BasicColour, _ shade: Shade? = nil) {
        self.colour = colour
        self.shade = shade
    }
}

/// One of the main colours of the centre, with its share of the centre's pixels (0–1).
public struct ColourShare: Sendable, Equatable, Codable {
    public var colour: NamedColour
    public var share: Double
}

public struct ColourReading: Sendable, Equatable, Codable {
    /// The colour of most of the centre of the view.
    public var centre: NamedColour
    /// Up to three colours, largest share first, each at least `ColourNamer.smallestShare`.
    public var mainColours: [ColourShare]
    /// The gains applied to R, G, B to undo a tinted light (1 where none).
    public var lightCorrection: [Double]
}

/// Names the colour in the centre of the view, where a hand holds a shirt up to the camera.
///
/// The light is taken out first: its tint from the surroundings (the "shades of grey" estimate,
/// Finlayson & Trezzi 2004: the Minkowski p-norm of each channel, p = 6), its unevenness across the
/// view (a smooth fall-off fitted to the surroundings), and its dimness. Pixels are then named in
/// CIELAB, where distances follow what people see.
public struct ColourNamer: Sendable {
    /// The centre: this share of the width and of the height.
    public var centreFraction = 0.4
    /// Colours below this share of the centre are not mentioned.
    public static let smallestShare = 0.1
    /// Tint corrections stay within these gains, so a truly coloured scene is not turned grey.
    static let largestGain = 2.0

    public init() {}

    /// The colours in the centre of the view ("what colour is this": the thing held up to the camera).
    public func read(_ image: RGBImage) -> ColourReading {
        read(image, region: nil, hidden: [])
    }

    /// The colours of one object ("what colour is the bus"): the pixels of its box, in pixels of
    /// `image`, the light judged from the view around it, and the background taken out: a colour
    /// that fills the band around the box (the road, the sky, a wall seen past the object's edges)
    /// is not the object's, unless the object is almost all that colour.
    ///
    /// `inFront` are the boxes of things standing between the camera and the object (the people
    /// walking past a bus): their pixels are neither the object's nor its background's, unless
    /// they hide almost all of it.
    public func read(_ image: RGBImage, objectX0 x0: Int, y0: Int, x1: Int, y1: Int,
                     inFront: [(x0: Int, y0: Int, x1: Int, y1: Int)] = []) -> ColourReading {
        read(image, region: (x0, y0, x1, y1), hidden: inFront)
    }

    /// Things in front are left out only while this share of the object's box still shows.
    static let leastShowing = 0.25

    /// A colour that makes up this share of the band around an object is the background's.
    static let backgroundShare = 0.3

    private func read(_ image: RGBImage, region: (x0: Int, y0: Int, x1: Int, y1: Int)?,
                      hidden: [(x0: Int, y0: Int, x1: Int, y1: Int)] = []) -> ColourReading {
        let width = image.width, height = image.height
        guard width > 0, height > 0 else {
            return ColourReading(centre: NamedColour(.black), mainColours: [], lightCorrection: [1, 1, 1])
        }
        // Linear RGB, 0–1 (sRGB decoding, IEC 61966-2-1), on a grid of at most ~200 × 200 samples.
        let step = max(1, max(width, height) / 200)
        let columns = (width + step - 1) / step, rows = (height + step - 1) / step
        var linear = [Double](repeating: 0, count: columns * rows * 3)
        for row in 0..<rows {
            for column in 0..<columns {
                let p = image.pixel(x: column * step, y: row * step)
                let i = (row * columns + column) * 3
                linear[i] = Self.decode(p.r); linear[i + 1] = Self.decode(p.g); linear[i + 2] = Self.decode(p.b)
            }
        }
        var centreX0 = Int(Double(columns) * (1 - centreFraction) / 2), centreX1 = columns - centreX0
        var centreY0 = Int(Double(rows) * (1 - centreFraction) / 2), centreY1 = rows - centreY0
        if let region {
            centreX0 = min(columns - 1, max(0, region.x0 / step)); centreX1 = max(centreX0 + 1, min(columns, (region.x1 + step - 1) / step))
            centreY0 = min(rows - 1, max(0, region.y0 / step)); centreY1 = max(centreY0 + 1, min(rows, (region.y1 + step - 1) / step))
        }
        func inCentre(_ column: Int, _ row: Int) -> Bool { column >= centreX0 && column < centreX1 && row >= centreY0 && row < centreY1 }

        // The light's tint, from the surroundings (the whole view when there are none).
        var norms = [0.0, 0.0, 0.0], count = 0.0
        for row in 0..<rows {
            for column in 0..<columns where !inCentre(column, row) || centreFraction >= 1 {
                let i = (row * columns + column) * 3
                for c in 0..<3 { norms[c] += pow(linear[i + c], 6) }
                count += 1
            }
        }
        var gains = [1.0, 1.0, 1.0]
        if count > 0 {
            let estimate = norms.map { pow($0 / count, 1.0 / 6) }
            let mean = estimate.reduce(0, +) / 3
            if estimate.allSatisfy({ $0 > 0.02 }) {
                gains = estimate.map { min(Self.largestGain, max(1 / Self.largestGain, mean / $0)) }
            }
        }
        // The light's unevenness: a plane fitted to the log luminance of the surroundings (light
        // falls off smoothly across a view; the object in the centre has its own lightness, which a
        // local blur would wrongly flatten). Each centre pixel is lit as the view's centre point is.
        var sums = [[Double]](repeating: [Double](repeating: 0, count: 4), count: 3)
        var surroundLuminance = 0.0, surroundCount = 0.0
        for row in 0..<rows {
            for column in 0..<columns where !inCentre(column, row) {
                let i = (row * columns + column) * 3
                let lum = 0.2126 * linear[i] * gains[0] + 0.7152 * linear[i + 1] * gains[1] + 0.0722 * linear[i + 2] * gains[2]
                surroundLuminance += lum; surroundCount += 1
                guard lum > 0.005 else { continue }
                let basis = [1, Double(column) / Double(columns) - 0.5, Double(row) / Double(rows) - 0.5]
                for r in 0..<3 {
                    for c in 0..<3 { sums[r][c] += basis[r] * basis[c] }
                    sums[r][3] += basis[r] * log(lum)
                }
            }
        }
        let plane = Self.solve3(sums) ?? [0, 0, 0]
        // The best-lit corner of the view is taken as properly lit; the rest is brought up to it.
        let brightestFall = [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)].map { plane[1] * $0.0 + plane[2] * $0.1 }.max() ?? 0
        // A dim view is brought up towards a room's usual level (its surroundings averaging middle
        // grey, 18 % reflectance); a bright one is left as it is, so white stays white.
        let levelGain = surroundCount > 0 ? min(4, max(1, 0.18 / max(surroundLuminance / surroundCount, 1e-4))) : 1

        func named(_ column: Int, _ row: Int) -> NamedColour {
            let i = row * columns + column
            let x = Double(column) / Double(columns) - 0.5, y = Double(row) / Double(rows) - 0.5
            let evenness = min(4, max(1, exp(brightestFall - (plane[1] * x + plane[2] * y))))
            return Self.name(linear: (0..<3).map { min(1, linear[3 * i + $0] * gains[$0] * evenness * levelGain) })
        }
        // The boxes in front, on the sample grid; dropped when they would hide almost all of the object.
        var hiddenCells = hidden.map { (x0: $0.x0 / step, y0: $0.y0 / step, x1: ($0.x1 + step - 1) / step, y1: ($0.y1 + step - 1) / step) }
        func isHidden(_ column: Int, _ row: Int) -> Bool {
            hiddenCells.contains { column >= $0.x0 && column < $0.x1 && row >= $0.y0 && row < $0.y1 }
        }
        if !hiddenCells.isEmpty {
            var showing = 0
            for row in centreY0..<centreY1 { for column in centreX0..<centreX1 where !isHidden(column, row) { showing += 1 } }
            if Double(showing) < Self.leastShowing * Double((centreY1 - centreY0) * (centreX1 - centreX0)) { hiddenCells = [] }
        }
        var counts: [NamedColour: Int] = [:]
        var total = 0
        for row in centreY0..<centreY1 {
            for column in centreX0..<centreX1 where !isHidden(column, row) {
                counts[named(column, row), default: 0] += 1
                total += 1
            }
        }
        if region != nil {
            // The band around the box, a quarter of its size wide: what shows past the object's edges.
            let bandX = max(1, (centreX1 - centreX0) / 4), bandY = max(1, (centreY1 - centreY0) / 4)
            var band: [BasicColour: Int] = [:], bandTotal = 0
            for row in max(0, centreY0 - bandY)..<min(rows, centreY1 + bandY) {
                for column in max(0, centreX0 - bandX)..<min(columns, centreX1 + bandX) where !inCentre(column, row) && !isHidden(column, row) {
                    band[named(column, row).colour, default: 0] += 1
                    bandTotal += 1
                }
            }
            let background = Set(band.filter { Double($0.value) >= Self.backgroundShare * Double(bandTotal) }.keys)
            let objectOnly = counts.filter { !background.contains($0.key.colour) }
            let objectTotal = objectOnly.values.reduce(0, +)
            // An object almost all of the background's colour (a white van on a white wall) keeps it.
            if objectTotal >= total / 5 {
                counts = objectOnly
                total = objectTotal
            }
        }
        // Shares by basic colour, each said in its most common shade: a shirt half in shadow is one
        // blue, not "dark blue, with blue".
        let byColour = Dictionary(grouping: counts, by: { $0.key.colour })
        let shares = byColour.map { colour, shades in
            ColourShare(colour: shades.max { $0.value < $1.value }!.key,
                        share: Double(shades.map(\.value).reduce(0, +)) / Double(max(total, 1)))
        }.sorted { $0.share > $1.share }
        let main = Array(shares.filter { $0.share >= Self.smallestShare }.prefix(3))
        return ColourReading(centre: shares.first?.colour ?? NamedColour(.black), mainColours: main, lightCorrection: gains)
    }

    /// The basic colour term of one linear-RGB colour, from its CIELAB lightness, chroma and hue.
    /// Boundaries put the sRGB primaries and the usual named colours (CSS's red, orange, gold,
    /// green, navy, purple, hot pink, saddle brown…) in the term English speakers give them.
    static func name(linear rgb: [Double]) -> NamedColour {
        let (l, a, b) = lab(rgb)
        let chroma = (a * a + b * b).squareRoot()
        let hue = (atan2(b, a) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
        if chroma < 12 || (l < 20 && chroma < 20) {
            if l < 22 { return NamedColour(.black) }
            // Paper and white cloth photograph at L* 78–95; 78 is sRGB (190, 190, 190).
            if l > 78 { return NamedColour(.white) }
            return NamedColour(.grey, l > 62 ? .light : l < 40 ? .dark : nil)
        }
        let colour: BasicColour
        switch hue {
        case 45..<85 where l < 52: colour = .brown
        case 10..<58: colour = l > 65 && chroma < 60 ? .pink : .red
        case 58..<85: colour = .orange
        case 85..<115: colour = .yellow
        case 115..<200: colour = .green
        case 200..<300: colour = .blue
        case 300..<345: colour = l > 60 ? .pink : .purple
        default: colour = l > 60 ? .pink : .red
        }
        let shade: NamedColour.Shade?
        switch colour {
        case .yellow, .pink, .brown: shade = nil
        default: shade = l > 72 ? .light : l < 35 ? .dark : nil
        }
        return NamedColour(colour, shade)
    }

    static func decode(_ value: UInt8) -> Double {
        let v = Double(value) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// CIELAB (D65 white) of a linear sRGB colour.
    static func lab(_ rgb: [Double]) -> (l: Double, a: Double, b: Double) {
        let x = (0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.95047
        let y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
        let z = (0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.08883
        func f(_ t: Double) -> Double { t > 0.008856 ? cbrt(t) : 7.787 * t + 16.0 / 116 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }

    /// Solves a 3×3 system given as rows [a b c | d] (Gaussian elimination with pivoting); nil when singular.
    static func solve3(_ system: [[Double]]) -> [Double]? {
        var m = system
        for column in 0..<3 {
            guard let pivot = (column..<3).max(by: { abs(m[$0][column]) < abs(m[$1][column]) }), abs(m[pivot][column]) > 1e-9 else { return nil }
            m.swapAt(column, pivot)
            for row in 0..<3 where row != column {
                let factor = m[row][column] / m[column][column]
                for k in column..<4 { m[row][k] -= factor * m[column][k] }
            }
        }
        return (0..<3).map { m[$0][3] / m[$0][$0] }
    }
}
