import AssistCore
import Foundation

/// What a phone camera does to a QR code, done to an `RGBImage`: turn it, blur it, add sensor
/// noise, shrink it, put a reflection on it.
enum PhotoConditions {
    /// Rotation by `degrees` about the centre, bilinear, onto a white canvas big enough to hold
    /// the whole turned picture.
    static func rotated(_ image: RGBImage, degrees: Double) -> RGBImage {
        let angle = degrees * .pi / 180, c = cos(angle), s = sin(angle)
        let w = Double(image.width), h = Double(image.height)
        let outW = Int((abs(w * c) + abs(h * s)).rounded(.up)), outH = Int((abs(w * s) + abs(h * c)).rounded(.up))
        var out = [UInt8](repeating: 255, count: outW * outH * 3)
        for y in 0..<outH {
            for x in 0..<outW {
                let dx = Double(x) + 0.5 - Double(outW) / 2, dy = Double(y) + 0.5 - Double(outH) / 2
                let sx = c * dx + s * dy + w / 2 - 0.5, sy = -s * dx + c * dy + h / 2 - 0.5
                guard sx >= 0, sy >= 0, sx < w - 1, sy < h - 1 else { continue }
                let x0 = Int(sx), y0 = Int(sy), tx = sx - Double(x0), ty = sy - Double(y0)
                for ch in 0..<3 {
                    func p(_ px: Int, _ py: Int) -> Double { Double(image.pixels[(py * image.width + px) * 3 + ch]) }
                    let v = (p(x0, y0) * (1 - tx) + p(x0 + 1, y0) * tx) * (1 - ty) + (p(x0, y0 + 1) * (1 - tx) + p(x0 + 1, y0 + 1) * tx) * ty
                    out[(y * outW + x) * 3 + ch] = UInt8(v.rounded())
                }
            }
        }
        return RGBImage(width: outW, height: outH, pixels: out)
    }

    /// Three passes of a (2r+1)-wide box blur, close to a Gaussian with σ² = 3 · ((2r+1)² − 1) / 12,
    /// each pass a running sum along rows and then columns (edge pixels repeated).
    static func blurred(_ image: RGBImage, radius: Int) -> RGBImage {
        var pixels = image.pixels.map(Int.init)
        let w = image.width, h = image.height, window = 2 * radius + 1
        func pass(count: Int, lines: Int, at: (Int, Int) -> Int) {
            var line = [Int](repeating: 0, count: count)
            for l in 0..<lines {
                for ch in 0..<3 {
                    for i in 0..<count { line[i] = pixels[at(l, i) * 3 + ch] }
                    var sum = 0
                    for k in -radius...radius { sum += line[max(0, min(count - 1, k))] }
                    for i in 0..<count {
                        pixels[at(l, i) * 3 + ch] = (sum + window / 2) / window
                        sum += line[min(count - 1, i + radius + 1)] - line[max(0, i - radius)]
                    }
                }
            }
        }
        for _ in 0..<3 {
            pass(count: w, lines: h) { y, x in y * w + x }
            pass(count: h, lines: w) { x, y in y * w + x }
        }
        return RGBImage(width: w, height: h, pixels: pixels.map { UInt8(max(0, min(255, $0))) })
    }

    /// Gaussian noise of standard deviation `sigma` grey levels, reproducible from `seed`.
    static func noisy(_ image: RGBImage, sigma: Double, seed: UInt64 = 7) -> RGBImage {
        var state = seed
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(state >> 11) + 0.5) / Double(1 << 53)
        }
        let pixels = image.pixels.map { v -> UInt8 in
            // Box–Muller.
            let n = sqrt(-2 * log(uniform())) * cos(2 * .pi * uniform())
            return UInt8(max(0, min(255, (Double(v) + sigma * n).rounded())))
        }
        return RGBImage(width: image.width, height: image.height, pixels: pixels)
    }

    /// Shrunk so its longer side is `side` pixels, each output pixel the mean of the input
    /// area it covers (what a camera sensor does).
    static func scaled(_ image: RGBImage, longerSide side: Int) -> RGBImage {
        let scale = Double(side) / Double(max(image.width, image.height))
        let outW = max(1, Int((Double(image.width) * scale).rounded())), outH = max(1, Int((Double(image.height) * scale).rounded()))
        var out = [UInt8](repeating: 0, count: outW * outH * 3)
        for y in 0..<outH {
            let y0 = Int(Double(y) / scale), y1 = max(y0 + 1, min(image.height, Int(Double(y + 1) / scale)))
            for x in 0..<outW {
                let x0 = Int(Double(x) / scale), x1 = max(x0 + 1, min(image.width, Int(Double(x + 1) / scale)))
                for ch in 0..<3 {
                    var sum = 0
                    for sy in y0..<y1 { for sx in x0..<x1 { sum += Int(image.pixels[(sy * image.width + sx) * 3 + ch]) } }
                    out[(y * outW + x) * 3 + ch] = UInt8(sum / ((y1 - y0) * (x1 - x0)))
                }
            }
        }
        return RGBImage(width: outW, height: outH, pixels: out)
    }

    /// A reflection: a bright elliptical patch, strongest at its centre, brightening every pixel
    /// under it by up to `strength` grey levels (dark modules there turn grey, not white).
    static func glared(_ image: RGBImage, centreX: Double, centreY: Double, radius: Double, strength: Double) -> RGBImage {
        var pixels = image.pixels
        let cx = centreX * Double(image.width), cy = centreY * Double(image.height), r = radius * Double(image.width)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let d = hypot((Double(x) - cx) / r, (Double(y) - cy) / (0.6 * r))
                guard d < 1 else { continue }
                let add = strength * (1 - d * d)
                for ch in 0..<3 {
                    let i = (y * image.width + x) * 3 + ch
                    pixels[i] = UInt8(min(255, Double(pixels[i]) + add))
                }
            }
        }
        return RGBImage(width: image.width, height: image.height, pixels: pixels)
    }
}
