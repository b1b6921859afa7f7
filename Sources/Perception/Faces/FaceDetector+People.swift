import AssistCore
import Foundation

/// Faces where the object detector found people. A face belongs on a person's head: the cascades
/// alone called a knife rack and a monitor faces in pictures with nobody in them, and missed faces
/// that were small (bus.jpg) or tilted (Zidane's). Knowing where the people are, the search is
/// strict nowhere and careful where a face can be.
extension FaceDetector {
    /// Where on a person the face is searched, and how hard.
    public struct HeadSearch: Sendable {
        /// The head region: the top of the person's box, as tall as the box is wide (a standing
        /// person's head and shoulders; all of a box that is only a head or an upper body) but at
        /// least this share of its height, widened by `sideMargin` of its width on each side (an
        /// arm raised or a head bent beyond the box).
        public var minimumHeightShare = 0.4
        public var sideMargin = 0.1
        /// The smallest face searched, as a share of the person box's longer side (a standing
        /// adult's face is about an eighth of its height; Zidane's, in a box that spans his
        /// pointing arm, a sixth of its width). The region is scaled so that this smallest face
        /// spans the cascade's window (never enlarged): small faces, lost on the 480-pixel copy of
        /// the whole picture, are searched at full resolution, and a face of the smallest size is seen by
        /// windows at several scales (at 0.07, Zidane's face was seen by too few to count).
        public var smallestFaceShare = 0.05
        /// Tilts tried for the frontal cascade, in degrees (heads lean; the cascade was trained upright).
        public var tiltsDegrees: [Double] = [0, -10, 10, -20, 20, -30, 30]
        /// A face in the head region needs more than this many frontal windows, or this many more
        /// than one for the profile cascade on its own; two cascades agreeing need more than
        /// `agreeingWindows` together. Looser than `isFace`, because the place is already a head.
        public var frontalWindows = 1
        public var agreeingWindows = 3
        public var profileWindows = 5

        public init() {}
    }

    /// Faces in `image`, largest first, given the boxes of the people the object detector found
    /// there (an empty list: it looked and found nobody). At most one face per person, on its head;
    /// a face-like pattern away from every person is not called a face, as the detector finds
    /// people far more reliably than a cascade tells a face from a pattern (see BENCHMARKS.md, issue 40, "Faces").
    /// Without a detector, use `detect(in:)`.
    public func detect(in image: RGBImage, people: [BoundingBox], search: HeadSearch = HeadSearch()) -> [Detection] {
        guard !image.isEmpty, !people.isEmpty else { return [] }
        let people = people.sorted { $0.area > $1.area }
        let regions = people.map { headRegion(of: $0, in: image, search: search) }
        // A face the strict rule accepts on the whole picture is the face of the person on whose
        // head it sits: where heads overlap (one person behind another), of the person whose box
        // it tops most squarely.
        var faces: [Place] = []
        var owner: [Int?] = Array(repeating: nil, count: people.count)
        for face in wholePictureFaces(in: image) {
            let centreX = face.x + face.size / 2, centreY = face.y + face.size / 2
            let candidates = people.indices.filter { i in
                owner[i] == nil && centreX >= regions[i].x0 && centreX <= regions[i].x1
                    && centreY >= regions[i].y0 && centreY <= regions[i].y1
            }
            func misfit(_ i: Int) -> Double {
                let person = people[i]
                return abs(centreX - Double(person.centerX)) / Double(max(1, person.width))
                    + abs(face.y - Double(person.y0)) / Double(max(1, person.height))
            }
            guard let i = candidates.min(by: { misfit($0) < misfit($1) }), !faces.contains(where: { Self.overlap(face, $0) }) else { continue }
            owner[i] = faces.count
            faces.append(face)
        }
        // The others' heads are searched closely, the largest (nearest) person first.
        for i in people.indices where owner[i] == nil {
            let person = people[i]
            let found = headFindings(in: image, region: regions[i], personSize: Double(max(person.width, person.height)), search: search)
                .filter { isFaceOnHead($0, search: search) }
                .sorted { $0.windows > $1.windows }
                .map { (x: $0.x, y: $0.y, size: $0.size, count: $0.windows) }
            if let face = found.first(where: { face in !faces.contains { Self.overlap(face, $0) } }) {
                owner[i] = faces.count
                faces.append(face)
            }
        }
        return Self.detections(faces)
    }

    /// The looser rule for a place on a person's head (see `HeadSearch`).
    func isFaceOnHead(_ finding: Finding, search: HeadSearch) -> Bool {
        if finding.frontalWindows > search.frontalWindows { return true }
        if finding.cascades >= 2 { return finding.windows > search.agreeingWindows }
        return finding.windows > search.profileWindows
    }

    func headRegion(of person: BoundingBox, in image: RGBImage, search: HeadSearch)
        -> (x0: Double, y0: Double, x1: Double, y1: Double) {
        let width = Double(person.width), height = Double(person.height)
        let regionHeight = min(height * 1.05, max(width, search.minimumHeightShare * height))
        return (max(0, Double(person.x0) - search.sideMargin * width), max(0, Double(person.y0) - 0.05 * height),
                min(Double(image.width), Double(person.x1) + search.sideMargin * width),
                min(Double(image.height), Double(person.y0) + regionHeight))
    }

    /// Every finding in the head region, on the region scaled so that the smallest face searched
    /// spans the cascade's window, upright (all three cascades) and tilted (the frontal one), in
    /// the picture's pixels.
    func headFindings(in image: RGBImage, region: (x0: Double, y0: Double, x1: Double, y1: Double), personSize: Double,
                      search: HeadSearch) -> [Finding] {
        // Never enlarged: a face smaller than the cascade's window in the picture itself was, on
        // coco128, more often a crease in a shirt or a patch of leaves than a face.
        let smallest = max(Double(cascade.windowWidth), search.smallestFaceShare * personSize)
        let scale = Double(cascade.windowWidth) / smallest
        let width = Int((region.x1 - region.x0) * scale), height = Int((region.y1 - region.y0) * scale)
        guard width >= cascade.windowWidth, height >= cascade.windowHeight else { return [] }
        let gray = Self.luma(image, region: region, width: width, height: height)
        let largest = min(Double(width), Double(height))
        var all: [Finding] = []
        for tilt in search.tiltsDegrees {
            let upright = tilt == 0
            let view = upright ? gray : Self.rotated(gray, width: width, height: height, degrees: tilt)
            for var finding in findings(in: view, width: width, height: height, minimumSize: Double(cascade.windowWidth),
                                        maximumSize: largest, turned: upright) {
                // The found square's centre, turned back into the upright region, then into the picture.
                let centre = upright ? (x: finding.x + finding.size / 2, y: finding.y + finding.size / 2)
                    : Self.rotate(x: finding.x + finding.size / 2, y: finding.y + finding.size / 2,
                                  aroundX: Double(width) / 2, y: Double(height) / 2, degrees: tilt)
                finding.size /= scale
                finding.x = region.x0 + centre.x / scale - finding.size / 2
                finding.y = region.y0 + centre.y / scale - finding.size / 2
                all.append(finding)
            }
        }
        return all
    }

    static func overlap(_ a: Place, _ b: Place) -> Bool {
        Finding(x: a.x, y: a.y, size: a.size, frontalWindows: 0, windows: 0, cascades: 0).overlaps(b)
    }

    /// The luma of `region` of the picture at `width`×`height`: each pixel the mean of the
    /// picture's pixels it covers when shrinking, bilinear between them when enlarging.
    static func luma(_ image: RGBImage, region: (x0: Double, y0: Double, x1: Double, y1: Double), width: Int, height: Int) -> [Float] {
        var out = [Float](repeating: 0, count: width * height)
        let xRatio = (region.x1 - region.x0) / Double(width), yRatio = (region.y1 - region.y0) / Double(height)
        image.pixels.withUnsafeBufferPointer { rgb in
            func value(_ x: Int, _ y: Int) -> Float {
                let i = (min(image.height - 1, max(0, y)) * image.width + min(image.width - 1, max(0, x))) * 3
                return 0.299 * Float(rgb[i]) + 0.587 * Float(rgb[i + 1]) + 0.114 * Float(rgb[i + 2])
            }
            for y in 0..<height {
                for x in 0..<width {
                    if xRatio > 1 || yRatio > 1 {
                        let sx0 = Int(region.x0 + Double(x) * xRatio), sy0 = Int(region.y0 + Double(y) * yRatio)
                        let sx1 = max(sx0 + 1, Int(region.x0 + Double(x + 1) * xRatio)), sy1 = max(sy0 + 1, Int(region.y0 + Double(y + 1) * yRatio))
                        var sum: Float = 0
                        for sy in sy0..<sy1 { for sx in sx0..<sx1 { sum += value(sx, sy) } }
                        out[y * width + x] = sum / Float((sx1 - sx0) * (sy1 - sy0))
                    } else {
                        let fx = region.x0 + (Double(x) + 0.5) * xRatio - 0.5, fy = region.y0 + (Double(y) + 0.5) * yRatio - 0.5
                        let ix = Int(fx.rounded(.down)), iy = Int(fy.rounded(.down))
                        let ax = Float(fx - Double(ix)), ay = Float(fy - Double(iy))
                        let top = value(ix, iy) * (1 - ax) + value(ix + 1, iy) * ax
                        let bottom = value(ix, iy + 1) * (1 - ax) + value(ix + 1, iy + 1) * ax
                        out[y * width + x] = top * (1 - ay) + bottom * ay
                    }
                }
            }
        }
        return out
    }

    /// `gray` turned by `degrees` about its centre (bilinear; the edges repeated beyond the border):
    /// the pixel at p shows what was at `rotate(p)`, so a face found at p was at `rotate(p)`.
    static func rotated(_ gray: [Float], width: Int, height: Int, degrees: Double) -> [Float] {
        var out = [Float](repeating: 0, count: width * height)
        let centreX = Double(width) / 2, centreY = Double(height) / 2
        for y in 0..<height {
            for x in 0..<width {
                let source = rotate(x: Double(x) + 0.5, y: Double(y) + 0.5, aroundX: centreX, y: centreY, degrees: degrees)
                let fx = min(Double(width - 1), max(0, source.x - 0.5)), fy = min(Double(height - 1), max(0, source.y - 0.5))
                let ix = min(width - 2, Int(fx)), iy = min(height - 2, Int(fy))
                guard ix >= 0, iy >= 0 else { out[y * width + x] = gray[Int(fy) * width + Int(fx)]; continue }
                let ax = Float(fx - Double(ix)), ay = Float(fy - Double(iy))
                let top = gray[iy * width + ix] * (1 - ax) + gray[iy * width + ix + 1] * ax
                let bottom = gray[(iy + 1) * width + ix] * (1 - ax) + gray[(iy + 1) * width + ix + 1] * ax
                out[y * width + x] = top * (1 - ay) + bottom * ay
            }
        }
        return out
    }

    static func rotate(x: Double, y: Double, aroundX centreX: Double, y centreY: Double, degrees: Double) -> (x: Double, y: Double) {
        let angle = degrees * .pi / 180, c = cos(angle), s = sin(angle)
        return (centreX + c * (x - centreX) - s * (y - centreY), centreY + s * (x - centreX) + c * (y - centreY))
    }
}
