import AssistCore
import Foundation

/// Finds faces, frontal and turned (that a face is there, its place and size; never who it is, nor age, gender
/// or mood) with a Haar cascade, the way OpenCV's `CascadeClassifier::detectMultiScale` does:
/// the picture is shrunk step by step, the cascade's window slides over every size, and the windows
/// that pass every stage are grouped, a face needing several overlapping windows.
///
/// Evaluated here rather than through libopencv-objdetect: the cascade is a small data file from
/// Debian's opencv-data, and this evaluator (integral images and stumps) is a page of code, where
/// OpenCV would add its whole core, imgproc and a C++ shim to the build for one function.
public struct FaceDetector: Sendable {
    public let cascade: FaceCascade
    /// Faces turned to the side: OpenCV's profile cascade finds faces looking one way; the mirrored
    /// picture gives the other. Nil: frontal faces only.
    public let profileCascade: FaceCascade?
    /// Each pyramid level is this much smaller than the one before (OpenCV's usual 1.1–1.2).
    public var scaleStep: Double = 1.15
    /// A face needs more than this many overlapping windows (OpenCV's `minNeighbors`, usually 3–5);
    /// fewer is more often a pattern on a shirt or in leaves than a face.
    public var minimumNeighbours: Int = 3
    /// Pictures are analysed at most this wide; a face must then span at least the cascade's 20
    /// pixels there, so the smallest face found is about 4 % of the picture's width (32 pixels of a
    /// 640-pixel camera frame: a face some 4 m away). Wider analysis found no more real faces on
    /// the test pictures, but false ones in a blurred crowd, at up to three times the cost.
    public var analysisWidthPixels: Int = 480

    public static let label = "face"
    /// The object detector's label whose boxes faces are searched in (`detect(in:people:)`).
    public static let personLabel = "person"
    /// Not a COCO class: faces get their own index after the detector's 80.
    public static let classIndex = 80

    public init(cascade: FaceCascade, profileCascade: FaceCascade? = nil) {
        self.cascade = cascade
        self.profileCascade = profileCascade
    }

    /// With Debian's frontal and profile face cascades.
    public init() throws(FaceCascade.LoadError) {
        self.init(cascade: try FaceCascade(), profileCascade: try FaceCascade(contentsOf: FaceCascade.debianProfileFacePath))
    }

    /// Faces in `image`, largest first, as detections labelled "face", when nothing else is known
    /// about the picture (no object detector ran): the whole picture under the strict rule
    /// (`isFace`). Their confidence grows with the number of windows that agree (n / (n + 2)); it
    /// orders faces but is not a probability.
    public func detect(in image: RGBImage) -> [Detection] {
        Self.detections(wholePictureFaces(in: image))
    }

    /// The faces of the whole picture under the strict rule, in the picture's pixels.
    func wholePictureFaces(in image: RGBImage) -> [Place] {
        guard !image.isEmpty else { return [] }
        let shrink = image.width > analysisWidthPixels ? Double(analysisWidthPixels) / Double(image.width) : 1
        let width = max(1, Int(Double(image.width) * shrink)), height = max(1, Int(Double(image.height) * shrink))
        let gray = Self.luma(image, width: width, height: height)
        // Where accepted places overlap, the one more windows agree on is the face.
        var faces: [Place] = []
        for finding in findings(in: gray, width: width, height: height).filter(isFace).sorted(by: { $0.windows > $1.windows })
        where !faces.contains(where: finding.overlaps) {
            faces.append((finding.x / shrink, finding.y / shrink, finding.size / shrink, finding.windows))
        }
        return faces
    }

    /// A face's place: its square's corner and side, and how many windows agreed on it.
    typealias Place = (x: Double, y: Double, size: Double, count: Int)

    static func detections(_ faces: [Place]) -> [Detection] {
        faces.map { face in
            Detection(classIndex: classIndex, label: label, confidence: Float(face.count) / Float(face.count + 2),
                      box: BoundingBox(x0: Float(face.x), y0: Float(face.y), x1: Float(face.x + face.size), y1: Float(face.y + face.size)))
        }.sorted { $0.box.area > $1.box.area }
    }

    /// Every place where the frontal cascade, or the profile cascade on the picture or its mirror
    /// image, found a face-like pattern with at least two agreeing windows, in `gray`'s pixels;
    /// faces from `minimumSize` to `maximumSize` pixels wide (0 and infinity: every size). Every
    /// cascade's windows are grouped loosely (two agreeing windows) so that a face two cascades see
    /// weakly can still add up; which places are faces is for the caller to judge.
    func findings(in gray: [Float], width: Int, height: Int, minimumSize: Double = 0, maximumSize: Double = .infinity,
                  turned: Bool = true) -> [Finding] {
        let sizes = (minimumSize, maximumSize)
        let frontal = Self.group(windows(of: cascade, in: gray, width: width, height: height, sizes: sizes), minimumNeighbours: 1)
        var findings = frontal.map { Finding(x: $0.x, y: $0.y, size: $0.size, frontalWindows: $0.count, windows: $0.count, cascades: 1) }
        if let profileCascade, turned {
            let mirrored = Self.mirrored(gray, width: width, height: height)
            let turnedOneWay = Self.group(windows(of: profileCascade, in: gray, width: width, height: height, sizes: sizes), minimumNeighbours: 1)
            let turnedOtherWay = Self.group(windows(of: profileCascade, in: mirrored, width: width, height: height, sizes: sizes), minimumNeighbours: 1)
                .map { (x: Double(width) - $0.x - $0.size, y: $0.y, size: $0.size, count: $0.count) }
            // One face seen by two cascades is one face: its windows add up, the frontal place stays.
            for (side, found) in [turnedOneWay, turnedOtherWay].enumerated() {
                for face in found.sorted(by: { $0.count > $1.count }) {
                    let candidates = findings.indices.filter { findings[$0].overlaps(face) && !findings[$0].profileSides.contains(side) }
                    if let i = candidates.max(by: { findings[$0].windows < findings[$1].windows }) {
                        findings[i].windows += face.count
                        findings[i].cascades += 1
                        findings[i].profileSides.insert(side)
                    } else {
                        findings.append(Finding(x: face.x, y: face.y, size: face.size, frontalWindows: 0, windows: face.count, cascades: 1,
                                                profileSides: [side]))
                    }
                }
            }
        }
        return findings
    }

    /// One place where one or more cascades found a face-like pattern, before it is judged.
    struct Finding {
        var x: Double, y: Double, size: Double
        /// Windows of the frontal cascade there (0: the profile cascade alone).
        var frontalWindows: Int
        /// Windows of every cascade that agreed on the place, and how many cascades did.
        var windows: Int
        var cascades: Int
        /// 0: the profile cascade on the picture, 1: on its mirror image.
        var profileSides: Set<Int> = []

        func overlaps(_ other: (x: Double, y: Double, size: Double, count: Int)) -> Bool {
            let w = max(0, min(x + size, other.x + other.size) - max(x, other.x))
            let h = max(0, min(y + size, other.y + other.size) - max(y, other.y))
            return w * h > 0.3 * min(size * size, other.size * other.size)
        }
    }

    /// A frontal face needs more than `minimumNeighbours` windows, as in OpenCV. The profile cascade
    /// is much looser (on pictures without people it fired on furniture, fur and foliage more often
    /// than the frontal one): a face it finds counts when another cascade agrees on the place and
    /// together they have more than twice the windows a frontal face needs, or when it alone has
    /// more than three times as many.
    func isFace(_ finding: Finding) -> Bool {
        if finding.frontalWindows > minimumNeighbours { return true }
        if finding.cascades >= 2 { return finding.windows > 2 * minimumNeighbours + 1 }
        return finding.windows > 3 * minimumNeighbours
    }

    /// Every window, at every pyramid level, that passes every stage of `cascade`; windows from
    /// `sizes.minimum` to `sizes.maximum` pixels wide.
    private func windows(of cascade: FaceCascade, in gray: [Float], width: Int, height: Int,
                         sizes: (minimum: Double, maximum: Double)) -> [(x: Double, y: Double, size: Double)] {
        var windows: [(x: Double, y: Double, size: Double)] = []
        var scale = max(1, sizes.minimum / Double(cascade.windowWidth))
        while Double(cascade.windowWidth) * scale <= min(Double(min(width, height)), sizes.maximum) {
            let levelWidth = Int(Double(width) / scale), levelHeight = Int(Double(height) / scale)
            let level = scale == 1 ? gray : Self.resized(gray, width: width, height: height, to: levelWidth, levelHeight)
            let step = scale > 2 ? 1 : 2
            for found in scan(level, of: cascade, width: levelWidth, height: levelHeight, step: step) {
                windows.append((Double(found.x) * scale, Double(found.y) * scale, Double(cascade.windowWidth) * scale))
            }
            scale *= scaleStep
        }
        return windows
    }

    private static func mirrored(_ gray: [Float], width: Int, height: Int) -> [Float] {
        var out = gray
        for y in 0..<height { for x in 0..<width { out[y * width + x] = gray[y * width + width - 1 - x] } }
        return out
    }

    /// Top-left corners of the windows at one pyramid level that pass every stage.
    private func scan(_ gray: [Float], of cascade: FaceCascade, width: Int, height: Int, step: Int) -> [(x: Int, y: Int)] {
        let stride = width + 1
        var sum = [Double](repeating: 0, count: stride * (height + 1))
        var squares = sum
        for y in 0..<height {
            var rowSum = 0.0, rowSquares = 0.0
            for x in 0..<width {
                let v = Double(gray[y * width + x])
                rowSum += v; rowSquares += v * v
                sum[(y + 1) * stride + x + 1] = sum[y * stride + x + 1] + rowSum
                squares[(y + 1) * stride + x + 1] = squares[y * stride + x + 1] + rowSquares
            }
        }
        let windowWidth = cascade.windowWidth, windowHeight = cascade.windowHeight
        guard width >= windowWidth, height >= windowHeight else { return [] }
        let flat = FlatCascade(cascade, integralStride: stride)
        var found: [(x: Int, y: Int)] = []
        sum.withUnsafeBufferPointer { integral in
            squares.withUnsafeBufferPointer { squareIntegral in
                flat.stumpThresholds.withUnsafeBufferPointer { stumpThresholds in
                flat.leftValues.withUnsafeBufferPointer { leftValues in
                flat.rightValues.withUnsafeBufferPointer { rightValues in
                flat.rectangleStarts.withUnsafeBufferPointer { rectangleStarts in
                flat.corners.withUnsafeBufferPointer { corners in
                flat.weights.withUnsafeBufferPointer { weights in
                    // OpenCV normalises by the standard deviation inside the window less a 1-pixel border.
                    let normArea = Double((windowWidth - 2) * (windowHeight - 2))
                    let inner = (a: stride + 1, b: stride + windowWidth - 1,
                                 c: (windowHeight - 1) * stride + 1, d: (windowHeight - 1) * stride + windowWidth - 1)
                    for y in Swift.stride(from: 0, through: height - windowHeight, by: step) {
                        for x in Swift.stride(from: 0, through: width - windowWidth, by: step) {
                            let origin = y * stride + x
                            let s = integral[origin + inner.a] - integral[origin + inner.b] - integral[origin + inner.c] + integral[origin + inner.d]
                            let q = squareIntegral[origin + inner.a] - squareIntegral[origin + inner.b]
                                - squareIntegral[origin + inner.c] + squareIntegral[origin + inner.d]
                            let variance = normArea * q - s * s
                            let norm = Float(variance > 0 ? variance.squareRoot() : 1)
                            var passed = true
                            var stump = 0
                            for stage in flat.stages {
                                var stageSum: Float = 0
                                while stump < stage.endStump {
                                    var value: Float = 0
                                    for r in rectangleStarts[stump]..<rectangleStarts[stump + 1] {
                                        let c = 4 * r
                                        value += weights[r] * Float(integral[origin + corners[c]] - integral[origin + corners[c + 1]]
                                                                    - integral[origin + corners[c + 2]] + integral[origin + corners[c + 3]])
                                    }
                                    stageSum += value < stumpThresholds[stump] * norm ? leftValues[stump] : rightValues[stump]
                                    stump += 1
                                }
                                if stageSum < stage.threshold { passed = false; break }
                            }
                            if passed { found.append((x, y)) }
                        }
                    }
                }}}}}}
            }
        }
        return found
    }

    /// The cascade laid out flat for one integral image: every stump's rectangles as the offsets of
    /// their four corners from the window's corner, so a window is evaluated by reading contiguous
    /// arrays (the nested arrays cost more than the arithmetic, and ten times more unoptimised).
    struct FlatCascade {
        var stages: [(threshold: Float, endStump: Int)] = []
        var stumpThresholds: [Float] = [], leftValues: [Float] = [], rightValues: [Float] = []
        /// Stump i's rectangles are `rectangleStarts[i]..<rectangleStarts[i + 1]`.
        var rectangleStarts: [Int] = [0]
        /// Four offsets a rectangle (top-left, top-right, bottom-left, bottom-right), into the integral image.
        var corners: [Int] = []
        var weights: [Float] = []

        init(_ cascade: FaceCascade, integralStride stride: Int) {
            for stage in cascade.stages {
                for stump in stage.stumps {
                    stumpThresholds.append(stump.threshold)
                    leftValues.append(stump.left)
                    rightValues.append(stump.right)
                    for r in cascade.features[stump.featureIndex].rectangles {
                        corners += [r.y * stride + r.x, r.y * stride + r.x + r.width,
                                    (r.y + r.height) * stride + r.x, (r.y + r.height) * stride + r.x + r.width]
                        weights.append(r.weight)
                    }
                    rectangleStarts.append(weights.count)
                }
                stages.append((stage.threshold, stumpThresholds.count))
            }
        }
    }

    /// OpenCV's `groupRectangles` (eps 0.2): windows that nearly coincide form one face, averaged;
    /// a face inside a larger, better supported one is dropped.
    static func group(_ windows: [(x: Double, y: Double, size: Double)], minimumNeighbours: Int) -> [(x: Double, y: Double, size: Double, count: Int)] {
        let eps = 0.2
        var parent = Array(windows.indices)
        func root(_ i: Int) -> Int { var i = i; while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }; return i }
        for i in windows.indices {
            for j in windows.indices where j > i {
                let a = windows[i], b = windows[j]
                let delta = eps * (min(a.size, b.size) + min(a.size, b.size)) * 0.5
                if abs(a.x - b.x) <= delta && abs(a.y - b.y) <= delta
                    && abs(a.x + a.size - b.x - b.size) <= delta && abs(a.y + a.size - b.y - b.size) <= delta {
                    parent[root(i)] = root(j)
                }
            }
        }
        var clusters: [Int: (x: Double, y: Double, size: Double, count: Int)] = [:]
        for i in windows.indices {
            let w = windows[i]
            let c = clusters[root(i)] ?? (0, 0, 0, 0)
            clusters[root(i)] = (c.x + w.x, c.y + w.y, c.size + w.size, c.count + 1)
        }
        // In a fixed order (the dictionary's is not), so that the same picture always gives the same faces.
        let faces = clusters.values.map { c in (x: c.x / Double(c.count), y: c.y / Double(c.count), size: c.size / Double(c.count), count: c.count) }
            .filter { $0.count > minimumNeighbours }
            .sorted { ($0.count, -$0.y, -$0.x) > ($1.count, -$1.y, -$1.x) }
        return faces.filter { face in
            !faces.contains { other in
                let d = other.size * eps
                return other.size > face.size && face.x >= other.x - d && face.y >= other.y - d
                    && face.x + face.size <= other.x + other.size + d && face.y + face.size <= other.y + other.size + d
                    && other.count > max(3, face.count)
            }
        }
    }

    private static func luma(_ image: RGBImage, width: Int, height: Int) -> [Float] {
        var out = [Float](repeating: 0, count: width * height)
        let xRatio = Double(image.width) / Double(width), yRatio = Double(image.height) / Double(height)
        image.pixels.withUnsafeBufferPointer { rgb in
            for y in 0..<height {
                let sy = min(image.height - 1, Int(Double(y) * yRatio + yRatio / 2))
                for x in 0..<width {
                    let sx = min(image.width - 1, Int(Double(x) * xRatio + xRatio / 2))
                    let i = (sy * image.width + sx) * 3
                    out[y * width + x] = 0.299 * Float(rgb[i]) + 0.587 * Float(rgb[i + 1]) + 0.114 * Float(rgb[i + 2])
                }
            }
        }
        return out
    }

    private static func resized(_ gray: [Float], width: Int, height: Int, to newWidth: Int, _ newHeight: Int) -> [Float] {
        var out = [Float](repeating: 0, count: newWidth * newHeight)
        let xRatio = Double(width) / Double(newWidth), yRatio = Double(height) / Double(newHeight)
        for y in 0..<newHeight {
            let sy = min(height - 1, Int(Double(y) * yRatio))
            for x in 0..<newWidth {
                out[y * newWidth + x] = gray[sy * width + min(width - 1, Int(Double(x) * xRatio))]
            }
        }
        return out
    }
}
