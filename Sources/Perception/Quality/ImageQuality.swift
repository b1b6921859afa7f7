import AssistCore
import Foundation

/// Whether a picture can be judged at all.
public enum ImageQualityVerdict: String, Sendable, Equatable, Codable, CaseIterable {
    case ok
    case tooDark
    case tooBlurred
}

/// The measurements behind a verdict, for a debug view and for tuning.
public struct ImageQualityReport: Sendable, Equatable {
    /// Mean luma (Rec. 709 weights on the 8-bit values), 0 = black … 1 = white.
    public let meanLuma: Double
    /// Share of pixels with luma at least `ImageQualityCheck.brightLuma`.
    public let brightFraction: Double
    /// Variance of the 4-neighbour Laplacian of the luma (0…1 scale), measured on the picture
    /// shrunk by area averaging so its longer side is at most `ImageQualityCheck.workingLongSidePixels`.
    public let laplacianVariance: Double
    public let verdict: ImageQualityVerdict
}

/// Decides whether a picture is too dark or too blurred to describe.
///
/// Darkness: mean luma below 0.10 (about 25 of 255; where an sRGB picture carries about 1 % of
/// full-scale light) *and* fewer than 2 % of pixels at luma 0.3 or more. The second condition
/// keeps a night street with lit shop windows, where something can be seen, from being called dark.
///
/// Blur: variance of the Laplacian (Pech-Pacheco et al. 2000, "Diatom autofocusing in brightfield
/// microscopy", ICPR), measured after shrinking to a 320-pixel longer side, so that the number
/// no longer depends on the resolution (a sharp 4000-pixel photo has fine texture a blur of one
/// pixel would hide; at 320 pixels only blur that hides objects counts). Threshold 0.0015 from
/// these measurements on the shared data (luma 0…1): sharp photos — coco128 127 of 128 at
/// 0.0038 or more (the one exception, 0.00076, is a smooth low-texture scene), bus.jpg 0.055,
/// zidane.jpg 0.014, the NYU/TUM/SUN colour frames 0.029 / 0.015 / 0.0076 — and the same photos
/// box-blurred with a kernel of 2 % of their longer side all at 0.00077 or less. A kernel of 1 % is
/// caught in 2 of 3 coco128 photos; milder blur is not flagged (objects are still recognisable).
/// A picture of a blank wall has no texture and is reported as blurred: there is nothing to judge.
public struct ImageQualityCheck: Sendable, Equatable {
    public static let brightLuma = 0.3
    public static let workingLongSidePixels = 320

    public let darkMeanLuma: Double
    public let darkMaximumBrightFraction: Double
    public let blurredLaplacianVariance: Double

    public static let standard = ImageQualityCheck(checkedDark: 0.10, bright: 0.02, blurred: 0.0015)

    public init(darkMeanLuma: Double = 0.10, darkMaximumBrightFraction: Double = 0.02,
                blurredLaplacianVariance: Double = 0.0015) throws {
        for (field, value) in [("dark mean luma", darkMeanLuma), ("dark bright fraction", darkMaximumBrightFraction)]
        where !(value >= 0 && value <= 1) {
            throw ImageQualityCheckError.outOfRange(field: field, value: value)
        }
        guard blurredLaplacianVariance >= 0, blurredLaplacianVariance.isFinite else {
            throw ImageQualityCheckError.outOfRange(field: "blurred Laplacian variance", value: blurredLaplacianVariance)
        }
        self.init(checkedDark: darkMeanLuma, bright: darkMaximumBrightFraction, blurred: blurredLaplacianVariance)
    }

    private init(checkedDark: Double, bright: Double, blurred: Double) {
        darkMeanLuma = checkedDark
        darkMaximumBrightFraction = bright
        blurredLaplacianVariance = blurred
    }

    public func verdict(for image: RGBImage) -> ImageQualityVerdict { report(for: image).verdict }

    /// Darkness is checked first: a dark picture also has little Laplacian energy, and "too dark"
    /// is the more useful thing to tell the user. An empty picture is too dark (nothing to see).
    public func report(for image: RGBImage) -> ImageQualityReport {
        guard !image.isEmpty else {
            return ImageQualityReport(meanLuma: 0, brightFraction: 0, laplacianVariance: 0, verdict: .tooDark)
        }
        let (small, width, height, mean, bright) = Self.measure(image, longSide: Self.workingLongSidePixels)
        let sharpness = Self.laplacianVariance(small, width: width, height: height)
        let verdict: ImageQualityVerdict
        if mean < darkMeanLuma && bright < darkMaximumBrightFraction {
            verdict = .tooDark
        } else if sharpness < blurredLaplacianVariance {
            verdict = .tooBlurred
        } else {
            verdict = .ok
        }
        return ImageQualityReport(meanLuma: mean, brightFraction: bright, laplacianVariance: sharpness, verdict: verdict)
    }

    /// One pass over the pixels: mean luma, the bright share, and the luma shrunk by area
    /// averaging so its longer side is `longSide` (pictures already that small are kept as they
    /// are). Each output pixel averages the block of input pixels it covers; nothing the size of
    /// the input is allocated, so a 12-megapixel photo costs only its own bytes.
    /// Luma uses the Rec. 709 weights (ITU-R BT.709) on the gamma-encoded values, as video does.
    static func measure(_ image: RGBImage, longSide: Int)
        -> (shrunk: [Double], width: Int, height: Int, meanLuma: Double, brightFraction: Double) {
        let width = image.width, height = image.height
        let scale = max(1, Double(max(width, height)) / Double(longSide))
        let outWidth = scale > 1 ? max(1, Int((Double(width) / scale).rounded())) : width
        let outHeight = scale > 1 ? max(1, Int((Double(height) / scale).rounded())) : height
        /// Output cell of each input column (row): block i covers i·n/m ..< (i+1)·n/m.
        func cells(_ n: Int, _ m: Int) -> [Int] {
            var map = [Int](repeating: 0, count: n)
            for i in 0..<m { for k in (i * n / m)..<((i + 1) * n / m) { map[k] = i } }
            return map
        }
        let cellOfColumn = cells(width, outWidth), cellOfRow = cells(height, outHeight)
        // Integer luma, Rec. 709 weights scaled to sum 256 (54, 183, 19): this loop touches every
        // pixel of the full picture, so it stays in integers and unchecked buffers.
        var sums = [UInt32](repeating: 0, count: outWidth * outHeight)
        var counts = [UInt32](repeating: 0, count: outWidth * outHeight)
        let brightThreshold = UInt32((brightLuma * 255 * 256).rounded(.up))
        // Each working cell needs only about 2 × 2 samples for its mean: on a 4000-pixel photo
        // (cells of 16 × 16) every 10th pixel each way is enough, and a hundredth of the work.
        let step = max(1, Int(scale / 1.5))
        var total: UInt64 = 0, brightCount = 0
        image.pixels.withUnsafeBufferPointer { pixels in
        sums.withUnsafeMutableBufferPointer { sums in
        counts.withUnsafeMutableBufferPointer { counts in
        cellOfColumn.withUnsafeBufferPointer { cellOfColumn in
            guard let base = pixels.baseAddress else { return }
            for y in stride(from: 0, to: height, by: step) {
                let rowCell = cellOfRow[y] * outWidth
                let row = base + 3 * y * width
                var rowTotal: UInt64 = 0
                for x in stride(from: 0, to: width, by: step) {
                    let luma = 54 * UInt32(row[3 * x]) + 183 * UInt32(row[3 * x + 1]) + 19 * UInt32(row[3 * x + 2])
                    rowTotal &+= UInt64(luma)
                    if luma >= brightThreshold { brightCount += 1 }
                    let cell = rowCell + cellOfColumn[x]
                    sums[cell] &+= luma
                    counts[cell] &+= 1
                }
                total += rowTotal
            }
        }}}}
        let lumaScale = 1.0 / (255 * 256)
        let shrunk = zip(sums, counts).map { $1 > 0 ? Double($0) * lumaScale / Double($1) : 0 }
        let pixelCount = Double(((width + step - 1) / step) * ((height + step - 1) / step))
        return (shrunk, outWidth, outHeight, Double(total) * lumaScale / pixelCount, Double(brightCount) / pixelCount)
    }

    /// Variance of 4·c − n − s − e − w over the interior pixels; 0 for pictures under 3 × 3.
    static func laplacianVariance(_ values: [Double], width: Int, height: Int) -> Double {
        guard width >= 3, height >= 3 else { return 0 }
        var sum = 0.0, sumOfSquares = 0.0
        for y in 1..<(height - 1) {
            for x in 1..<(width - 1) {
                let i = y * width + x
                let laplacian = 4 * values[i] - values[i - 1] - values[i + 1] - values[i - width] - values[i + width]
                sum += laplacian
                sumOfSquares += laplacian * laplacian
            }
        }
        let count = Double((width - 2) * (height - 2))
        let mean = sum / count
        return max(0, sumOfSquares / count - mean * mean)
    }
}

public enum ImageQualityCheckError: UserFacingError, Equatable {
    case outOfRange(field: String, value: Double)

    public var userMessage: String {
        switch self {
        case .outOfRange(let field, let value):
            return "The image quality \(field) threshold is out of range: \(value)."
        }
    }
}
