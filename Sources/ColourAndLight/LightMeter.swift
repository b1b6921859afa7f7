import AssistCore
import Foundation

/// How light the view is, in words.
public enum LightLevel: String, Sendable, Codable {
    case bright, dim, dark
}

/// The light detector (as Seeing AI's): the brightness of the view as a tone whose pitch rises with
/// it, and the answer to "is the light on?".
public struct LightMeter: Sendable, Equatable {
    /// The tone's pitch in darkness and in full brightness: three octaves, in the range the ear
    /// follows best (a tone falling below ~200 Hz is lost in noise, above ~2 kHz it is shrill).
    public var lowestPitchHz = 200.0
    public var highestPitchHz = 1600.0
    /// Mean brightness (0–1, the picture's own encoded luma) from which a room counts as bright,
    /// and below which it is dark. A lit room photographs at 0.3–0.6; a dark room with a phone's
    /// exposure at most of 0.1 (night scenes, unlit rooms).
    public var brightFrom = 0.3
    public var darkBelow = 0.12

    public init() {}

    /// Mean luma (BT.601) over the picture, 0–1, on a grid of at most ~100 × 100 samples.
    public func brightness(of image: RGBImage) -> Double {
        guard !image.isEmpty else { return 0 }
        let step = max(1, max(image.width, image.height) / 100)
        var total = 0.0, count = 0.0
        for y in stride(from: 0, to: image.height, by: step) {
            for x in stride(from: 0, to: image.width, by: step) {
                let p = image.pixel(x: x, y: y)
                total += 0.299 * Double(p.r) + 0.587 * Double(p.g) + 0.114 * Double(p.b)
                count += 1
            }
        }
        return total / count / 255
    }

    /// The tone's pitch for a brightness: equal steps of brightness are equal musical intervals.
    public func pitchHz(forBrightness brightness: Double) -> Double {
        let b = min(1, max(0, brightness))
        return lowestPitchHz * pow(highestPitchHz / lowestPitchHz, b)
    }

    public func level(forBrightness brightness: Double) -> LightLevel {
        brightness >= brightFrom ? .bright : brightness < darkBelow ? .dark : .dim
    }
}
