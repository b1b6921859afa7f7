import AssistCore
import CZBar
import Foundation

/// Finds QR codes in pictures with zbar; this is the only file that touches its pointers.
///
/// zbar reads a code photographed at an angle, blurred or partly glared far better from some
/// renderings of the picture than others, so a picture that yields nothing is tried again,
/// cheapest first: grey as it is, enlarged twice (zbar's finder-pattern search needs a few
/// pixels a module, which a code scaled to 200 px lacks), binarised by Otsu's threshold
/// (which removes glare gradients and noise), and reduced by 2 and 3 (which steepens the edges
/// of a blurred code, in pixels, past zbar's edge detector's threshold).
public enum QRCodeReader {
    /// The text of every QR code found, in zbar's order; empty when none.
    public static func texts(in image: RGBImage) -> [String] {
        let grey = GreyImage(image)
        for rendering in Rendering.allCases {
            let found = scan(rendering.apply(to: grey))
            if !found.isEmpty { return found }
        }
        return []
    }

    /// The codes found in one rendering of the picture. A live camera gives many pictures of the
    /// same code, so each frame is given one rendering, in turn, instead of all of them: a frame
    /// costs one scan, and the next frame comes sooner.
    public static func texts(in image: RGBImage, rendering: Rendering) -> [String] {
        scan(rendering.apply(to: GreyImage(image)))
    }

    /// The renderings tried, cheapest and most often successful first.
    public enum Rendering: Int, CaseIterable, Sendable {
        case asIs, enlarged, binarised, halved, thirded, enlargedBinarised

        func apply(to grey: GreyImage) -> GreyImage {
            switch self {
            case .asIs: return grey
            case .enlarged: return grey.enlarged(by: 2)
            case .binarised: return grey.binarised()
            case .halved: return grey.reduced(by: 2)
            case .thirded: return grey.reduced(by: 3)
            case .enlargedBinarised: return grey.enlarged(by: 2).binarised()
            }
        }
    }

    /// The text of the first code that starts with `prefix`, or the first code of all.
    public static func text(in image: RGBImage, preferringPrefix prefix: String = PayloadCoding.textPrefix) throws -> String {
        let found = texts(in: image)
        guard let first = found.first(where: { $0.hasPrefix(prefix) }) ?? found.first else {
            throw PrescriptionError.noQRCodeFound
        }
        return first
    }

    private static func scan(_ grey: GreyImage) -> [String] {
        guard grey.width > 0, grey.height > 0, let scanner = zbar_image_scanner_create() else { return [] }
        defer { zbar_image_scanner_destroy(scanner) }
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1)
        guard let image = zbar_image_create() else { return [] }
        defer { zbar_image_destroy(image) }
        // "Y800": 8-bit grey, one byte a pixel.
        zbar_image_set_format(image, 0x3030_3859)
        zbar_image_set_size(image, UInt32(grey.width), UInt32(grey.height))
        return grey.pixels.withUnsafeBufferPointer { buffer -> [String] in
            // No cleanup handler: the buffer is ours; the image forgets the pointer before
            // this closure returns.
            zbar_image_set_data(image, buffer.baseAddress, UInt(buffer.count), nil)
            defer { zbar_image_set_data(image, nil, 0, nil) }
            guard zbar_scan_image(scanner, image) > 0 else { return [] }
            var texts: [String] = []
            var symbol = zbar_image_first_symbol(image)
            while let current = symbol {
                if zbar_symbol_get_type(current) == ZBAR_QRCODE, let data = zbar_symbol_get_data(current) {
                    let length = Int(zbar_symbol_get_data_length(current))
                    let bytes = UnsafeRawBufferPointer(start: data, count: length)
                    texts.append(String(decoding: bytes, as: UTF8.self))
                }
                symbol = zbar_symbol_next(current)
            }
            return texts
        }
    }
}

/// 8-bit luma (BT.601 weights), what zbar scans.
struct GreyImage: Sendable {
    let width: Int
    let height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    init(_ image: RGBImage) {
        let count = image.width * image.height
        var grey = [UInt8](repeating: 0, count: count)
        image.pixels.withUnsafeBufferPointer { rgb in
            for i in 0..<count {
                let r = Int(rgb[3 * i]), g = Int(rgb[3 * i + 1]), b = Int(rgb[3 * i + 2])
                grey[i] = UInt8((299 * r + 587 * g + 114 * b) / 1000)
            }
        }
        width = image.width
        height = image.height
        pixels = grey
    }

    /// Bilinear enlargement.
    func enlarged(by factor: Int) -> GreyImage {
        let w = width * factor, h = height * factor
        var out = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            let sy = max(0, min(Double(height - 1), (Double(y) + 0.5) / Double(factor) - 0.5))
            let y0 = Int(sy), y1 = min(y0 + 1, height - 1), ty = sy - Double(y0)
            for x in 0..<w {
                let sx = max(0, min(Double(width - 1), (Double(x) + 0.5) / Double(factor) - 0.5))
                let x0 = Int(sx), x1 = min(x0 + 1, width - 1), tx = sx - Double(x0)
                let top = Double(pixels[y0 * width + x0]) * (1 - tx) + Double(pixels[y0 * width + x1]) * tx
                let bottom = Double(pixels[y1 * width + x0]) * (1 - tx) + Double(pixels[y1 * width + x1]) * tx
                out[y * w + x] = UInt8((top * (1 - ty) + bottom * ty).rounded())
            }
        }
        return GreyImage(width: w, height: h, pixels: out)
    }

    /// Each output pixel the mean of a `factor` × `factor` block.
    func reduced(by factor: Int) -> GreyImage {
        let w = width / factor, h = height / factor
        guard w > 0, h > 0 else { return self }
        var out = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var sum = 0
                for dy in 0..<factor { for dx in 0..<factor { sum += Int(pixels[(y * factor + dy) * width + x * factor + dx]) } }
                out[y * w + x] = UInt8(sum / (factor * factor))
            }
        }
        return GreyImage(width: w, height: h, pixels: out)
    }

    /// Black and white at Otsu's threshold (Otsu 1979), the one that best separates the two
    /// classes of the histogram.
    func binarised() -> GreyImage {
        var histogram = [Int](repeating: 0, count: 256)
        for p in pixels { histogram[Int(p)] += 1 }
        let total = Double(pixels.count)
        let sumAll = histogram.enumerated().reduce(0.0) { $0 + Double($1.offset * $1.element) }
        var sumBelow = 0.0, countBelow = 0.0, best = 0.0, threshold = 128
        for t in 0..<256 {
            countBelow += Double(histogram[t])
            sumBelow += Double(t * histogram[t])
            guard countBelow > 0, countBelow < total else { continue }
            let meanBelow = sumBelow / countBelow, meanAbove = (sumAll - sumBelow) / (total - countBelow)
            let between = countBelow * (total - countBelow) * (meanBelow - meanAbove) * (meanBelow - meanAbove)
            if between > best { best = between; threshold = t }
        }
        return GreyImage(width: width, height: height, pixels: pixels.map { Int($0) > threshold ? 255 : 0 })
    }
}
