import Foundation

/// A boosted cascade of Haar-like features in OpenCV's XML format (`opencv_storage`, stage type
/// BOOST, feature type HAAR, stump weak classifiers), as Debian's opencv-data ships them in
/// /usr/share/opencv4/haarcascades. Viola & Jones (2001), extended features by Lienhart & Maydt (2002).
public struct FaceCascade: Sendable {
    struct Rectangle: Sendable { var x: Int, y: Int, width: Int, height: Int, weight: Float }
    struct Feature: Sendable { var rectangles: [Rectangle] }
    struct Stump: Sendable { var featureIndex: Int, threshold: Float, left: Float, right: Float }
    struct Stage: Sendable { var threshold: Float, stumps: [Stump] }

    public enum LoadError: Error, Equatable, Sendable {
        case unreadable(path: String)
        case unsupported(path: String, reason: String)
    }

    /// The window the cascade was trained on, in pixels (24×24 for the frontal face cascades).
    public let windowWidth: Int
    public let windowHeight: Int
    let stages: [Stage]
    let features: [Feature]

    /// Debian's frontal face cascade (package opencv-data): Lienhart's "alt" cascade, which on
    /// zidane.jpg and bus.jpg found the same real faces as the "default" one without its false faces
    /// in a blurred crowd and on a pointing hand, in a third of the time (see BENCHMARKS.md, issue 40, "Faces").
    public static let debianFrontalFacePath = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt.xml"
    /// Debian's profile face cascade (faces turned to one side; mirror the picture for the other).
    public static let debianProfileFacePath = "/usr/share/opencv4/haarcascades/haarcascade_profileface.xml"

    public init(contentsOf path: String = FaceCascade.debianFrontalFacePath) throws(LoadError) {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(path: path)
        }
        func values(_ tag: String, in text: Substring) -> [Substring] {
            var found: [Substring] = []
            var rest = text[...]
            while let open = rest.range(of: "<\(tag)>"), let close = rest.range(of: "</\(tag)>", range: open.upperBound..<rest.endIndex) {
                found.append(rest[open.upperBound..<close.lowerBound])
                rest = rest[close.upperBound...]
            }
            return found
        }
        func numbers(_ text: Substring) -> [Double] { text.split(whereSeparator: \.isWhitespace).compactMap { Double($0) } }
        guard text.contains("<featureType>HAAR</featureType>"), text.contains("<stageType>BOOST</stageType>") else {
            throw .unsupported(path: path, reason: "not a boosted Haar cascade in OpenCV's current format")
        }
        guard let width = values("width", in: text[...]).first.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
              let height = values("height", in: text[...]).first.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
              let featuresStart = text.range(of: "<features>") else {
            throw .unsupported(path: path, reason: "no window size or features")
        }
        let stagePart = text[..<featuresStart.lowerBound]
        var stages: [Stage] = []
        for stageText in stagePart.components(separatedBy: "<stageThreshold>").dropFirst() {
            let piece = Substring(stageText)
            guard let threshold = piece.split(separator: "<").first.flatMap({ Float($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else { continue }
            let nodes = values("internalNodes", in: piece).map(numbers)
            let leaves = values("leafValues", in: piece).map(numbers)
            guard nodes.count == leaves.count else { throw .unsupported(path: path, reason: "unpaired nodes and leaves") }
            var stumps: [Stump] = []
            for (node, leaf) in zip(nodes, leaves) {
                // A stump: "left right featureIndex threshold" with two leaves; deeper trees are not supported.
                guard node.count == 4, leaf.count == 2 else { throw .unsupported(path: path, reason: "weak classifiers deeper than a stump") }
                stumps.append(Stump(featureIndex: Int(node[2]), threshold: Float(node[3]), left: Float(leaf[0]), right: Float(leaf[1])))
            }
            stages.append(Stage(threshold: threshold, stumps: stumps))
        }
        var features: [Feature] = []
        for rects in values("rects", in: text[featuresStart.upperBound...]) {
            var rectangles: [Rectangle] = []
            for entry in values("_", in: rects) {
                let n: [Double] = numbers(entry)
                guard n.count == 5 else { continue }
                let x = Int(n[0]), y = Int(n[1]), w = Int(n[2]), h = Int(n[3])
                rectangles.append(Rectangle(x: x, y: y, width: w, height: h, weight: Float(n[4])))
            }
            features.append(Feature(rectangles: rectangles))
        }
        if text.contains("<tilted>1</tilted>") { throw .unsupported(path: path, reason: "tilted features") }
        guard !stages.isEmpty, stages.allSatisfy({ $0.stumps.allSatisfy { $0.featureIndex < features.count } }) else {
            throw .unsupported(path: path, reason: "stages refer to missing features")
        }
        windowWidth = width
        windowHeight = height
        self.stages = stages
        self.features = features
    }
}
