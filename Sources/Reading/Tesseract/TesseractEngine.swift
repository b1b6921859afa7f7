import AssistCore
import CTesseract
import Foundation
import Perception

/// How Tesseract looks for text on the picture it is given.
///
/// The raw values are Tesseract's `TessPageSegMode` numbers (`tesseract --help-psm`).
public enum PageSegmentation: Int32, Sendable, CaseIterable {
    /// Orientation and script detection only. The corresponding C constant is `PSM_OSD_ONLY`.
    case orientationOnly = 0
    /// Columns, blocks and lines found by layout analysis: pages. `PSM_AUTO`.
    case page = 3
    /// As much text as possible in no particular order: signs and labels in a scene. `PSM_SPARSE_TEXT`.
    case sparseText = 11
    /// One line of text: a region already cut out. `PSM_SINGLE_LINE`.
    case singleLine = 7
}

/// How Tesseract turns grey into black and white before recognition (its `thresholding_method`
/// variable, Tesseract 5.0 and later).
public enum Binarisation: String, Sendable, CaseIterable, Codable {
    /// One global threshold (Otsu); best for even light: scans and flat pages.
    case global = "0"
    /// A local threshold per window (Sauvola); survives shadows and uneven light on signs.
    case local = "2"
}

/// The page orientation Tesseract's orientation detector reports, as the clockwise turn the
/// picture needs to be upright, with its confidence (a margin over the next best guess; 0 when unsure).
public struct PageOrientation: Sendable, Equatable {
    public var clockwiseQuarterTurnsToUpright: Int
    public var confidence: Float
}

/// One word as Tesseract read it, in the coordinates of the grey picture it was given.
public struct TesseractWord: Sendable, Equatable {
    public var text: String
    /// 0–100, Tesseract's word confidence.
    public var confidence: Float
    public var box: BoundingBox
    public var isDictionaryWord: Bool
    /// Which block and line of this recognition the word belongs to (counted from 0).
    public var blockIndex: Int
    public var lineIndex: Int
}

/// A failure of the text recogniser itself (not "no text", which is a normal answer).
public enum TextRecognitionError: Error, Equatable, Sendable, UserFacingError {
    /// Tesseract could not load the language data (tesseract-ocr-<lang> not installed).
    case languageUnavailable(String)
    /// Tesseract refused the picture or failed while reading it.
    case recognitionFailed
    /// The orientation data (tesseract-ocr-osd) is missing.
    case orientationDataUnavailable
    /// Reading took longer than its time allowed (`TextReader.readingBudget`) and was stopped.
    case timeLimit(seconds: Int)

    public var userMessage: String {
        switch self {
        case .languageUnavailable(let language):
            "Text cannot be read in \"\(language)\": its Tesseract language data is not installed (Debian package tesseract-ocr-\(language))."
        case .recognitionFailed: "The text recogniser failed on this picture."
        case .orientationDataUnavailable: "The page orientation data is not installed (Debian package tesseract-ocr-osd)."
        case .timeLimit(let seconds):
            "Reading this picture was stopped after \(seconds) seconds without finding text that could be read; photograph the text closer, flat and in good light."
        }
    }
}

/// The one owner of Tesseract's pointers: a loaded recogniser for one language.
///
/// Not thread-safe (Tesseract's API object is not); a reader owns one and uses it from one task.
public final class TesseractEngine {
    private let handle: OpaquePointer
    public let language: String
    /// When recognitions must stop, and the time allowed in all (for the sentence); nil: never.
    public var deadline: (instant: ContinuousClock.Instant, seconds: Int)?

    /// `dataDirectory`: the tessdata folder; nil lets Tesseract use its built-in Debian path
    /// (/usr/share/tesseract-ocr/5/tessdata) or TESSDATA_PREFIX.
    public init(language: String = "eng", dataDirectory: String? = nil) throws(TextRecognitionError) {
        guard let api = TessBaseAPICreate() else { throw .recognitionFailed }
        let status = language.withCString { lang in
            if let dataDirectory {
                return dataDirectory.withCString { TessBaseAPIInit3(api, $0, lang) }
            }
            return TessBaseAPIInit3(api, nil, lang)
        }
        guard status == 0 else {
            TessBaseAPIDelete(api)
            throw .languageUnavailable(language)
        }
        handle = api
        self.language = language
        // Tesseract's own debug chatter ("Estimating resolution as …") is not for the user.
        _ = TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
    }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    /// Reads every word of `image`.
    public func recognize(_ image: GrayImage, segmentation: PageSegmentation,
                          binarisation: Binarisation = .global) throws(TextRecognitionError) -> [TesseractWord] {
        guard !image.isEmpty else { return [] }
        TessBaseAPISetPageSegMode(handle, TessPageSegMode(UInt32(segmentation.rawValue)))
        _ = TessBaseAPISetVariable(handle, "thresholding_method", binarisation.rawValue)
        // Tesseract's own progress monitor stops a recognition at the deadline (issue 39: a
        // 48-megapixel picture of noise was read for minutes).
        var monitor: OpaquePointer?
        if let deadline {
            let left = ContinuousClock.now.duration(to: deadline.instant)
            guard left > .zero else { throw .timeLimit(seconds: deadline.seconds) }
            monitor = TessMonitorCreate()
            TessMonitorSetDeadlineMSecs(monitor, Int32(clamping: max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)))
        }
        defer { if let monitor { TessMonitorDelete(monitor) } }
        setImage(image)
        defer { TessBaseAPIClear(handle) }
        guard TessBaseAPIRecognize(handle, monitor) == 0 else {
            if let deadline, ContinuousClock.now >= deadline.instant { throw .timeLimit(seconds: deadline.seconds) }
            throw .recognitionFailed
        }
        guard let iterator = TessBaseAPIGetIterator(handle) else { return [] }
        defer { TessResultIteratorDelete(iterator) }
        let page = TessResultIteratorGetPageIterator(iterator)
        var words: [TesseractWord] = []
        var blockIndex = -1, lineIndex = -1
        repeat {
            if TessPageIteratorIsAtBeginningOf(page, RIL_BLOCK) != 0 { blockIndex += 1 }
            if TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0 { lineIndex += 1 }
            guard let cText = TessResultIteratorGetUTF8Text(iterator, RIL_WORD) else { continue }
            let text = String(cString: cText)
            TessDeleteText(cText)
            var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
            guard TessPageIteratorBoundingBox(page, RIL_WORD, &left, &top, &right, &bottom) != 0 else { continue }
            words.append(TesseractWord(
                text: text, confidence: TessResultIteratorConfidence(iterator, RIL_WORD),
                box: BoundingBox(x0: Float(left), y0: Float(top), x1: Float(right), y1: Float(bottom)),
                isDictionaryWord: TessResultIteratorWordIsFromDictionary(iterator) != 0,
                blockIndex: max(blockIndex, 0), lineIndex: max(lineIndex, 0)))
        } while TessPageIteratorNext(page, RIL_WORD) != 0
        return words
    }

    /// Where the lines of text are, from layout analysis alone (no recognition: a few tens of
    /// milliseconds on a frame), in the picture's coordinates.
    public func textLineBoxes(_ image: GrayImage, segmentation: PageSegmentation = .sparseText) -> [BoundingBox] {
        guard !image.isEmpty else { return [] }
        TessBaseAPISetPageSegMode(handle, TessPageSegMode(UInt32(segmentation.rawValue)))
        setImage(image)
        defer { TessBaseAPIClear(handle) }
        guard let page = TessBaseAPIAnalyseLayout(handle) else { return [] }
        defer { TessPageIteratorDelete(page) }
        var boxes: [BoundingBox] = []
        repeat {
            var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
            if TessPageIteratorBoundingBox(page, RIL_TEXTLINE, &left, &top, &right, &bottom) != 0 {
                boxes.append(BoundingBox(x0: Float(left), y0: Float(top), x1: Float(right), y1: Float(bottom)))
            }
        } while TessPageIteratorNext(page, RIL_TEXTLINE) != 0
        return boxes
    }

    /// The page's orientation from Tesseract's orientation detector; nil when the picture has too
    /// little text for it to judge.
    public func detectOrientation(_ image: GrayImage) throws(TextRecognitionError) -> PageOrientation? {
        guard !image.isEmpty else { return nil }
        // The orientation model is loaded only for a segmentation mode that asks for it.
        TessBaseAPISetPageSegMode(handle, TessPageSegMode(UInt32(PageSegmentation.orientationOnly.rawValue)))
        setImage(image)
        defer { TessBaseAPIClear(handle) }
        var degrees: Int32 = 0
        var confidence: Float = 0
        var script: UnsafePointer<CChar>?
        var scriptConfidence: Float = 0
        guard TessBaseAPIDetectOrientationScript(handle, &degrees, &confidence, &script, &scriptConfidence) != 0 else {
            return nil
        }
        // Tesseract reports how far the text is turned clockwise; turning back is the opposite.
        let quarterTurns = ((4 - Int(degrees) / 90) % 4 + 4) % 4
        return PageOrientation(clockwiseQuarterTurnsToUpright: quarterTurns, confidence: confidence)
    }

    private func setImage(_ image: GrayImage) {
        OpenMPThreads.useOneThread()
        image.pixels.withUnsafeBufferPointer { buffer in
            // Tesseract copies the pixels into its own image here.
            TessBaseAPISetImage(handle, buffer.baseAddress, Int32(image.width), Int32(image.height), 1, Int32(image.width))
        }
        // Pixels per inch only steers Tesseract's size heuristics; 300 is a scan's usual density and
        // silences its guess.
        TessBaseAPISetSourceResolution(handle, 300)
    }
}

/// Debian's Tesseract is built with OpenMP, which spreads parts of its LSTM recogniser over several
/// threads (its parallel loops ask for up to 10). On a 2-core machine shared with the detector, the
/// speech and other programs those threads mostly wait for each other: a 640×480 page's recognition
/// pass took 0.98 s with them and 0.25 s on one thread (BENCHMARKS.md, Reading text). Tesseract's
/// documentation gives the same advice (OMP_THREAD_LIMIT=1) for a process doing other work beside it.
///
/// The loops name their thread count, which overrides `omp_set_num_threads`, and OMP_THREAD_LIMIT is
/// read only when libgomp loads; what is left is OpenMP's `omp_set_max_active_levels(0)`: no parallel
/// region is active, so each runs on the thread that enters it. It holds for the whole process, where
/// only Tesseract uses OpenMP (OpenVINO runs on its own TBB threads). libgomp comes with libtesseract,
/// so the function is looked up there rather than wrapped as a library of its own.
enum OpenMPThreads {
    private typealias SetMaxActiveLevels = @convention(c) (Int32) -> Void
    private static let oneThreadPerRegion: Void = {
        guard let symbol = dlsym(nil, "omp_set_max_active_levels") else { return }
        unsafeBitCast(symbol, to: SetMaxActiveLevels.self)(0)
    }()

    static func useOneThread() {
        _ = oneThreadPerRegion
    }
}
