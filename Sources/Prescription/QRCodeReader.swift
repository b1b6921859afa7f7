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
///
/// A picture of any size is searched in bounded time and memory (issue 39: a 49-megapixel PNG
/// took 2 min 48 s and 661 MB): it is reduced first until its longer side is at most
/// `maximumSearchSide` (a code that fills a tenth of a 48-megapixel photo still has several
/// pixels a module then), the enlarging renderings are tried only on a picture that is small to
/// begin with, and no rendering after the first is started once `searchBudget` is spent.
public enum QRCodeReader {
    /// The longest side searched, in pixels.
    public static let maximumSearchSide = 2000
    /// Pictures with a longer side than this are not enlarged (enlarging helps only a small code
    /// in a small picture, and doubles both sides).
    static let maximumEnlargedSide = 1000
    /// The time after which no further rendering is tried.
    public static let searchBudget: Duration = .seconds(4)

    /// The text of every QR code found, in zbar's order; empty when none.
    public static func texts(in image: RGBImage) -> [String] {
        search(image).texts
    }

    /// What one search did: the codes found, the size of the picture searched and the renderings tried.
    struct Search {
        var texts: [String] = []
        var searchedWidth = 0
        var searchedHeight = 0
        var renderingsTried: [Rendering] = []
    }

    /// The search itself; `elapsed` tells the time spent since it began (a test gives its own).
    static func search(_ image: RGBImage, budget: Duration = searchBudget, elapsed: (() -> Duration)? = nil) -> Search {
        let clock = ContinuousClock(), start = clock.now
        let elapsed = elapsed ?? { clock.now - start }
        let longestSide = max(image.width, image.height)
        let factor = longestSide > maximumSearchSide ? (longestSide + maximumSearchSide - 1) / maximumSearchSide : 1
        let grey = GreyImage(image, reducedBy: factor)
        var search = Search(searchedWidth: grey.width, searchedHeight: grey.height)
        for rendering in Rendering.allCases {
            // The picture as it is is always looked at, however long reducing it took on a busy
            // machine; a further rendering only while time remains, and not once the task that
            // asked is cancelled (`assist serve` stopping with SIGTERM).
            if rendering != .asIs { guard elapsed() < budget, !Task.isCancelled else { break } }
            if rendering.enlarges && max(grey.width, grey.height) > maximumEnlargedSide { continue }
            search.renderingsTried.append(rendering)
            let found = scan(rendering.apply(to: grey))
            if !found.isEmpty { search.texts = found; break }
        }
        return search
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

        var enlarges: Bool { self == .enlarged || self == .enlargedBinarised }

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
        self.init(image, reducedBy: 1)
    }

    /// Luma, each pixel the mean of a `factor` × `factor` block of the picture (1: as it is):
    /// reduced while converting, so a large picture never has a full-size grey copy.
    init(_ image: RGBImage, reducedBy factor: Int) {
        let factor = max(1, factor)
        let w = max(1, image.width / factor), h = max(1, image.height / factor)
        let factor2 = min(factor, image.width, image.height)
        var grey = [UInt8](repeating: 0, count: image.width == 0 || image.height == 0 ? 0 : w * h)
        if !grey.isEmpty {
            image.pixels.withUnsafeBufferPointer { rgb in
                for y in 0..<h {
                    for x in 0..<w {
                        var sum = 0
                        for dy in 0..<factor2 {
                            let row = (y * factor + dy) * image.width
                            for dx in 0..<factor2 {
                                let i = 3 * (row + x * factor + dx)
                                sum += 299 * Int(rgb[i]) + 587 * Int(rgb[i + 1]) + 114 * Int(rgb[i + 2])
                            }
                        }
                        grey[y * w + x] = UInt8(sum / (1000 * factor2 * factor2))
                    }
                }
            }
        }
        width = grey.isEmpty ? 0 : w
        height = grey.isEmpty ? 0 : h
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
