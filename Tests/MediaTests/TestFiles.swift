import AssistCore
import Foundation
import TestSupport
import Testing

extension RGBImage {
    /// The mean R, G, B over a rectangle (all of it by default).
    func meanColour(x: Int = 0, y: Int = 0, width w: Int? = nil, height h: Int? = nil) -> (r: Double, g: Double, b: Double) {
        let (w, h) = (w ?? width - x, h ?? height - y)
        var sums = (0.0, 0.0, 0.0)
        for row in y..<(y + h) {
            for column in x..<(x + w) {
                let pixel = pixel(x: column, y: row)
                sums.0 += Double(pixel.r); sums.1 += Double(pixel.g); sums.2 += Double(pixel.b)
            }
        }
        let count = Double(w * h)
        return (sums.0 / count, sums.1 / count, sums.2 / count)
    }

    /// The mean absolute difference per channel value from `other` (same size), 0…255.
    func meanAbsoluteDifference(from other: RGBImage) -> Double {
        precondition(width == other.width && height == other.height)
        var total = 0
        for i in pixels.indices { total += abs(Int(pixels[i]) - Int(other.pixels[i])) }
        return Double(total) / Double(pixels.count)
    }
}
