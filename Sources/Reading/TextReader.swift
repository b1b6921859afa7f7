import AssistCore
import Foundation
import Perception

/// How much work a reading may take.
public enum ReadingEffort: String, Sendable, CaseIterable, Codable {
    /// One sparse-text pass on the frame as it is: short-text mode on live frames (≤ 300 ms for 640×480).
    case quick
    /// Orientation, deskew, enlargement, three passes (page and sparse segmentation; global and
    /// local binarisation) and each uncertain region re-read on its own: a picture or a page.
    case thorough
}

/// Reads the text in a picture: prepares it (orientation, tilt, size), runs Tesseract in several
/// ways, keeps the most confident reading of each place, drops what is not plausibly text, and puts
/// the rest in reading order.
public final class TextReader {
    private let engine: TesseractEngine
    /// Orientation detection needs its own model (osd.traineddata): loaded beside a reading
    /// language, Tesseract's detector answers nonsense (270° with full confidence for every page).
    private let orientationEngine: TesseractEngine
    public let filter: PlausibleText

    /// Tesseract reads best when letters are some 20–40 pixels tall (its LSTM models are trained on
    /// text lines scaled to 36 px high); small text is enlarged towards this word-box height.
    static let preferredWordHeightPixels: Float = 40
    /// Enlargement is capped: beyond 3× it only magnifies blur, and beyond 2 600 px (a phone photo's
    /// usual size) it costs seconds per pass.
    static let largestEnlargement = 3.0
    static let largestLongSidePixels = 2600.0
    /// A picture file is decoded for reading at most this long on its longer side (issue 39: a
    /// 49-megapixel picture was read at full size). A page that fills an 8000-pixel photo has
    /// letters 40 pixels tall or more, twice what Tesseract needs; halving them loses nothing.
    public static let largestPictureSidePixels = 4000
    /// The orientation detector's confidence needed before a turned reading is even tried; the
    /// turned reading must then also be the more confident one.
    static let orientationConfidenceToTry: Float = 1.5

    public init(language: String = "eng", filter: PlausibleText = PlausibleText(), dataDirectory: String? = nil) throws(TextRecognitionError) {
        engine = try TesseractEngine(language: language, dataDirectory: dataDirectory)
        do {
            orientationEngine = try TesseractEngine(language: "osd", dataDirectory: dataDirectory)
        } catch {
            throw .orientationDataUnavailable
        }
        self.filter = filter
    }

    /// The time the reading of a large picture may take in all, from the start of its decoding:
    /// its first pass must end within it, and further passes run only while it lasts; what they
    /// found by then is kept. 6 s, so that the whole command ends within the 10 s issue 39 asks:
    /// start-up and Tesseract's page layout, which cannot be stopped midway, took up to 3.3 s more
    /// on a 48-megapixel picture of noise (the worst case measured, BENCHMARKS.md).
    public static let readingBudget: Duration = .seconds(6)
    /// Pictures up to this many pixels (8 megapixels; every test picture) are read without a time
    /// limit: their passes are bounded by their size, and a busy machine must not read them worse.
    /// Larger ones (a 12- or 48-megapixel photo, read at 4000 × 3000) have `readingBudget`.
    public static let pixelsReadWithoutLimit = 8_000_000

    /// - Parameters:
    ///   - budget: the time allowed; nil: `readingBudget` for a picture larger than
    ///     `pixelsReadWithoutLimit`, no limit for others.
    ///   - startedAt: when the work on this picture began (before its file was decoded): the
    ///     budget counts from then, so decoding a huge file does not lengthen the whole (issue 39:
    ///     a 48-megapixel picture read within 10 s in all). Nil: from now.
    public func read(_ image: RGBImage, effort: ReadingEffort = .thorough, budget: Duration? = nil,
                     startedAt: ContinuousClock.Instant? = nil) throws(TextRecognitionError) -> TextReading {
        let budget = budget ?? (image.width * image.height > Self.pixelsReadWithoutLimit ? Self.readingBudget : nil)
        let start = startedAt ?? ContinuousClock.now
        engine.deadline = budget.map { (start.advanced(by: $0), Int($0.components.seconds)) }
        defer { engine.deadline = nil }
        let gray = GrayImage(image)
        switch effort {
        case .quick:
            return try readQuickly(gray)
        case .thorough:
            return try readThoroughly(gray)
        }
    }

    private func readThoroughly(_ gray: GrayImage) throws(TextRecognitionError) -> TextReading {
        var turns = [0]
        if let orientation = try orientationEngine.detectOrientation(gray), orientation.clockwiseQuarterTurnsToUpright != 0,
           orientation.confidence >= Self.orientationConfidenceToTry {
            turns.insert(orientation.clockwiseQuarterTurnsToUpright, at: 0)
        }
        var best: (reading: TextReading, score: Float, isConfidentPage: Bool)?
        for quarterTurns in turns {
            let candidate = try readUpright(gray, quarterTurns: quarterTurns)
            if best == nil || candidate.score > best!.score { best = candidate }
            // A page read confidently the way the detector turned it needs no second opinion.
            if candidate.isConfidentPage { break }
        }
        return best!.reading
    }

    /// A page whose first reading is this long and this clean is done: the further passes exist
    /// for scenes and small text, and only cost time on a clean page (≤ 2 s is the target).
    static let confidentPageWords = 15
    static let confidentPageShare = 0.85

    /// One orientation: deskew, enlarge, several passes, uncertain regions re-read alone.
    private func readUpright(_ gray: GrayImage, quarterTurns: Int) throws(TextRecognitionError) -> (reading: TextReading, score: Float, isConfidentPage: Bool) {
        let turned = gray.rotatedClockwise(quarterTurns: quarterTurns)
        let tilt = SkewEstimate.clockwiseTiltDegrees(of: turned)
        let level = turned.rotated(degrees: -tilt)
        // The first pass at natural size also measures how tall the text is.
        let placement = Placement(original: gray, quarterTurns: quarterTurns, tiltDegrees: tilt, scale: 1)
        let firstPass = try engine.recognize(level, segmentation: .page)
        var candidates = accepted(firstPass, placement: nil)
        let scale = enlargement(for: firstPass, image: level)
        let wordlike = firstPass.filter { $0.text.count >= 2 }.count
        // Read confidently at natural size, the page needs no enlargement either.
        let isConfidentPage = candidates.count >= Self.confidentPageWords
            && Double(candidates.count) >= Self.confidentPageShare * Double(max(wordlike, 1))
        if isConfidentPage {
            return (finish(candidates, placement: placement, quarterTurns: quarterTurns, tilt: tilt).reading,
                    candidates.reduce(Float(0)) { $0 + $1.confidence * Float($1.text.count) }, true)
        }
        let enlarged = scale > 1 ? level.scaled(by: scale) : level
        let unscale = { (words: [ReadWord]) in words.map { word -> ReadWord in
            var word = word
            word.box = Placement.scale(word.box, by: Float(1 / scale))
            return word
        } }
        do {
            if scale > 1 {
                candidates += unscale(accepted(try engine.recognize(enlarged, segmentation: .page), placement: nil))
            }
            let sparseGlobal = try engine.recognize(enlarged, segmentation: .sparseText, binarisation: .global)
            candidates += unscale(accepted(sparseGlobal, placement: nil))
            let sparseLocal = try engine.recognize(enlarged, segmentation: .sparseText, binarisation: .local)
            candidates += unscale(accepted(sparseLocal, placement: nil))
            candidates += try rereadUncertainRegions([sparseGlobal, sparseLocal], in: enlarged, scale: scale)
        } catch .timeLimit {
            // The time is spent: what the passes so far read is the reading.
        } catch {
            throw error
        }
        let finished = finish(candidates, placement: placement, quarterTurns: quarterTurns, tilt: tilt)
        return (finished.reading, finished.score, false)
    }

    /// The most confident word at each place, in reading order, fragments dropped, boxes in the
    /// picture's own coordinates.
    private func finish(_ candidates: [ReadWord], placement: Placement, quarterTurns: Int, tilt: Double) -> (reading: TextReading, score: Float) {
        let words = ReadingOrder.mostConfident(candidates)
        let score = words.reduce(Float(0)) { $0 + $1.confidence * Float($1.text.count) }
        // Lines and blocks are formed upright and level, then every box goes back to the picture's own coordinates.
        let blocks = ReadingOrder.blocks(of: words).filter(filter.keeps).map { block in
            ReadBlock(lines: block.lines.map { line in
                ReadLine(words: line.words.map { word in
                    var word = word
                    word.box = placement.boxInOriginal(word.box)
                    return word
                })
            })
        }
        return (TextReading(blocks: blocks, quarterTurnsApplied: quarterTurns, skewCorrectedDegrees: tilt), score)
    }

    /// Short-text mode reads the largest lines in view, each on its own: the sign or label the user
    /// points the camera at is the biggest text in the frame, and reading a whole page of small print
    /// would take a second per frame (the 640×480 target is 300 ms).
    static let quickLineCount = 3

    private func readQuickly(_ gray: GrayImage) throws(TextRecognitionError) -> TextReading {
        let lines = engine.textLineBoxes(gray)
            .filter { $0.height >= 8 && $0.width >= $0.height }
            .sorted { $0.height * min($0.width, 8 * $0.height) > $1.height * min($1.width, 8 * $1.height) }
            .prefix(Self.quickLineCount)
        var words: [ReadWord] = []
        for box in lines {
            words += try readRegion(box, in: gray, binarisations: [.global])
        }
        return TextReading(blocks: ReadingOrder.blocks(of: ReadingOrder.mostConfident(words)).filter(filter.keeps))
    }

    /// One region cut out with a margin, brought to Tesseract's preferred height and read as one
    /// line; words come back in `image`'s coordinates.
    private func readRegion(_ box: BoundingBox, in image: GrayImage, binarisations: [Binarisation]) throws(TextRecognitionError) -> [ReadWord] {
        let margin = Int(box.height * 0.3)
        let x0 = max(0, Int(box.x0) - margin), y0 = max(0, Int(box.y0) - margin)
        let region = image.cropped(x: x0, y: y0, width: Int(box.width) + 2 * margin, height: Int(box.height) + 2 * margin)
        guard !region.isEmpty else { return [] }
        let regionScale = min(Self.largestEnlargement, max(1, Double(Self.preferredWordHeightPixels / max(box.height, 1))))
        let ready = regionScale > 1.05 ? region.scaled(by: regionScale) : region
        var found: [ReadWord] = []
        for binarisation in binarisations {
            found += accepted(try engine.recognize(ready, segmentation: .singleLine, binarisation: binarisation), placement: nil).map { word in
                var word = word
                let inRegion = Placement.scale(word.box, by: Float(1 / regionScale))
                word.box = BoundingBox(x0: inRegion.x0 + Float(x0), y0: inRegion.y0 + Float(y0),
                                       x1: inRegion.x1 + Float(x0), y1: inRegion.y1 + Float(y0))
                return word
            }
        }
        return found
    }

    /// Places where a sparse pass saw a text-like line but could not read it confidently are cut
    /// out with a margin, enlarged to Tesseract's preferred height and read as one line on their own,
    /// away from the clutter around them. At most `largestRegionCount` regions, largest first.
    static let largestRegionCount = 8
    private func rereadUncertainRegions(_ passes: [[TesseractWord]], in image: GrayImage, scale: Double) throws(TextRecognitionError) -> [ReadWord] {
        // A line that is wholly confident needs no second look; nor does a speck.
        var boxes: [BoundingBox] = []
        for words in passes {
            let lines = Dictionary(grouping: words) { "\($0.blockIndex)/\($0.lineIndex)" }
            for line in lines.values
            where line.contains(where: { $0.confidence < filter.minimumConfidence && $0.confidence >= 30 && $0.text.count >= 3 }) {
                let box = ReadWord.union(line.map(\.box))
                guard box.height >= 8, box.width >= 2 * box.height else { continue }
                if !boxes.contains(where: { $0.intersectionOverUnion(with: box) > 0.5 }) { boxes.append(box) }
            }
        }
        let uncertain = boxes.sorted { $0.area > $1.area }.prefix(Self.largestRegionCount)
        var found: [ReadWord] = []
        for box in uncertain {
            found += try readRegion(box, in: image, binarisations: Binarisation.allCases).map { word in
                var word = word
                word.box = Placement.scale(word.box, by: Float(1 / scale))
                return word
            }
        }
        return found
    }

    /// How much to enlarge so the typical confident word reaches the preferred height; when nothing
    /// was read confidently the text (if any) is assumed small, as in a scene seen from afar.
    private func enlargement(for words: [TesseractWord], image: GrayImage) -> Double {
        let heights = words.filter { $0.confidence >= filter.minimumConfidence && $0.text.count >= 2 }.map(\.box.height).sorted()
        let longSide = Double(max(image.width, image.height))
        let byTextSize: Double
        if heights.count >= 3 {
            byTextSize = Double(Self.preferredWordHeightPixels / max(heights[heights.count / 2], 1))
        } else {
            byTextSize = 2
        }
        let wanted = min(Self.largestEnlargement, byTextSize, Self.largestLongSidePixels / longSide)
        // Enlarging by less than a quarter changes nothing Tesseract sees.
        return wanted >= 1.25 ? wanted : 1
    }

    private func accepted(_ words: [TesseractWord], placement: Placement?) -> [ReadWord] {
        words.compactMap { word in
            guard let text = filter.accepted(word.text, confidence: word.confidence, isDictionaryWord: word.isDictionaryWord) else { return nil }
            return ReadWord(text: text, confidence: word.confidence / 100, box: placement?.boxInOriginal(word.box) ?? word.box,
                            isDictionaryWord: word.isDictionaryWord)
        }
    }
}

/// How the picture read relates to the picture given: turned by quarter turns, levelled by a small
/// tilt and scaled. Boxes are mapped back through all three.
struct Placement {
    var originalWidth: Int
    var originalHeight: Int
    var quarterTurns: Int
    var tiltDegrees: Double
    var scale: Double

    init(original: GrayImage, quarterTurns: Int = 0, tiltDegrees: Double = 0, scale: Double = 1) {
        originalWidth = original.width
        originalHeight = original.height
        self.quarterTurns = ((quarterTurns % 4) + 4) % 4
        self.tiltDegrees = tiltDegrees
        self.scale = scale
    }

    static func scale(_ box: BoundingBox, by factor: Float) -> BoundingBox {
        BoundingBox(x0: box.x0 * factor, y0: box.y0 * factor, x1: box.x1 * factor, y1: box.y1 * factor)
    }

    func boxInOriginal(_ box: BoundingBox) -> BoundingBox {
        let unscaled = Self.scale(box, by: Float(1 / scale))
        let corners = [(unscaled.x0, unscaled.y0), (unscaled.x1, unscaled.y0), (unscaled.x0, unscaled.y1), (unscaled.x1, unscaled.y1)]
            .map { pointInOriginal(x: Double($0.0), y: Double($0.1)) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return BoundingBox(x0: Float(xs.min()!), y0: Float(ys.min()!), x1: Float(xs.max()!), y1: Float(ys.max()!))
            .clipped(width: originalWidth, height: originalHeight)
    }

    private func pointInOriginal(x: Double, y: Double) -> (x: Double, y: Double) {
        let (turnedWidth, turnedHeight) = quarterTurns % 2 == 1 ? (originalHeight, originalWidth) : (originalWidth, originalHeight)
        // Undo the levelling: the level picture was the turned one rotated by -tilt about its centre.
        let cx = Double(turnedWidth - 1) / 2, cy = Double(turnedHeight - 1) / 2
        let radians = tiltDegrees * .pi / 180
        let dx = x - cx, dy = y - cy
        let tx = cos(radians) * dx - sin(radians) * dy + cx
        let ty = sin(radians) * dx + cos(radians) * dy + cy
        // Undo the quarter turns (GrayImage.rotatedClockwise's mapping, inverted).
        let w = Double(originalWidth), h = Double(originalHeight)
        switch quarterTurns {
        case 1: return (ty, h - tx)
        case 2: return (w - tx, h - ty)
        case 3: return (w - ty, tx)
        default: return (tx, ty)
        }
    }
}
